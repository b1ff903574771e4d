// Branch and bound over arrangements, simulated in child processes (plan_search.h).
#include "tools/plan/plan_search.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "sim/process/child_pool.h"
#include "tools/plan/plan_components.h"
#include "tools/report/progress.h"

namespace rlsim {

std::string status_name(PointStatus status) {
  switch (status) {
    case PointStatus::simulated: return "simulated";
    case PointStatus::refused_memory: return "does not fit memory";
    case PointStatus::refused: return "refused";
    case PointStatus::dominated: return "bound off the front";
    case PointStatus::misses_target: return "bound misses the target";
    case PointStatus::dearer: return "dearer than a plan that meets the target";
    case PointStatus::not_reached: return "not reached";
  }
  return "";
}

namespace {

/// Why `p` need not be simulated given what has been, or not_reached when it must be.
PointStatus prune(const PlanPoint& p, const std::vector<PlanPoint>& points,
                  const PlanSearchOptions& options) {
  if (options.exhaustive) return PointStatus::not_reached;
  if (options.target_step_s) {
    // What is chosen is the cheapest per hour that meets the target: the front on cost per step
    // does not decide it.
    if (p.estimate_s > *options.target_step_s) return PointStatus::misses_target;
    for (const PlanPoint& s : points) {
      if (s.status == PointStatus::simulated && s.figures.steady_step_s <= *options.target_step_s &&
          s.arrangement.usd_per_hour < p.arrangement.usd_per_hour)
        return PointStatus::dearer;
    }
    return PointStatus::not_reached;
  }
  const double cheapest_cost = p.arrangement.usd_per_hour * p.estimate_s / 3600.0;
  for (const PlanPoint& s : points) {
    if (s.status == PointStatus::simulated && s.figures.steady_step_s <= p.estimate_s &&
        s.usd_per_step() <= cheapest_cost)
      return PointStatus::dominated;
  }
  return PointStatus::not_reached;
}

/// The order arrangements are tried in: the smallest bound first, or with a target the cheapest per
/// hour first; ties in the space's order.
std::vector<size_t> search_order(const std::vector<PlanPoint>& points, const PlanSearchOptions& options) {
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const PlanPoint &x = points[a], &y = points[b];
    if (options.target_step_s && x.arrangement.usd_per_hour != y.arrangement.usd_per_hour)
      return x.arrangement.usd_per_hour < y.arrangement.usd_per_hour;
    return x.bound_s < y.bound_s;
  });
  return order;
}

}  // namespace

void search_plan(const std::string& file, const LoadOptions& base, const PoolShape& pools,
                 std::vector<PlanPoint>& points, const PlanSearchOptions& options,
                 const std::function<void(long at_most_left, double job_s)>& finished) {
  const std::vector<size_t> order = search_order(points, options);
  ComponentMemo memo(pools);
  for (const PlanPoint& p : points) memo.record(p);  // reused from an earlier plan
  size_t next = 0;
  int loaded = 0;
  while (next < order.size()) {
    std::vector<long> batch;
    while (next < order.size() && batch.size() < static_cast<size_t>(kPlanBatch)) {
      PlanPoint& p = points[order[next++]];
      if (p.reused) continue;
      p.estimate_s = options.exhaustive ? p.bound_s : memo.estimate(p);
      p.status = prune(p, points, options);
      if (p.status != PointStatus::not_reached) continue;
      if (loaded + static_cast<int>(batch.size()) >= options.max_points) break;
      batch.push_back(static_cast<long>(order[next - 1]));
    }
    if (batch.empty()) break;
    const ChildOutcome failure = run_in_children(
        batch, options.jobs,
        [&](long i) {
          return timed([&]() {
            return simulate_trial(file, base, points[static_cast<size_t>(i)].arrangement.sets(pools));
          });
        },
        [&](const ChildOutcome& c) {
          if (!c.ok) return;
          const auto [seconds, text] = untimed(c.text);
          PlanPoint& p = points[static_cast<size_t>(c.job)];
          p.figures = trial_figures(text);
          p.status = p.figures.ran      ? PointStatus::simulated
                     : p.figures.memory ? PointStatus::refused_memory
                                        : PointStatus::refused;
          finished(std::min<long>(static_cast<long>(order.size() - next), options.max_points - loaded),
                   seconds);
        });
    if (!failure.ok) rethrow_child_failure(failure, "a plan point");
    for (long i : batch) memo.record(points[static_cast<size_t>(i)]);
    loaded += static_cast<int>(batch.size());
    if (loaded >= options.max_points) break;
  }
}

std::vector<size_t> pareto_front(const std::vector<PlanPoint>& points) {
  std::vector<size_t> simulated;
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].status == PointStatus::simulated) simulated.push_back(i);
  }
  // By step time, then cost: a point is on the front when it is cheaper than every faster one.
  std::stable_sort(simulated.begin(), simulated.end(), [&](size_t a, size_t b) {
    const PlanPoint &x = points[a], &y = points[b];
    if (x.figures.steady_step_s != y.figures.steady_step_s)
      return x.figures.steady_step_s < y.figures.steady_step_s;
    return x.usd_per_step() < y.usd_per_step();
  });
  std::vector<size_t> front;
  for (size_t i : simulated) {
    if (front.empty() || points[i].usd_per_step() < points[front.back()].usd_per_step()) front.push_back(i);
  }
  return front;
}

std::optional<size_t> chosen_point(const std::vector<PlanPoint>& points, const PlanSearchOptions& options,
                                   bool by_cost) {
  std::optional<size_t> best;
  for (size_t i = 0; i < points.size(); ++i) {
    const PlanPoint& p = points[i];
    if (p.status != PointStatus::simulated) continue;
    if (options.target_step_s && p.figures.steady_step_s > *options.target_step_s) continue;
    if (!best) {
      best = i;
      continue;
    }
    const PlanPoint& b = points[*best];
    const auto key = [&](const PlanPoint& x) {
      if (options.target_step_s) return std::make_pair(x.arrangement.usd_per_hour, x.figures.steady_step_s);
      if (by_cost) return std::make_pair(x.usd_per_step(), x.figures.steady_step_s);
      return std::make_pair(x.figures.steady_step_s, x.usd_per_step());
    };
    if (key(p) < key(b)) best = i;
  }
  return best;
}

}  // namespace rlsim
