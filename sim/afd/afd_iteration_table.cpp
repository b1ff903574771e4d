// Building the AFD iteration table in child processes (ChildPool), and reading it back by interpolation.
#include "sim/afd/afd_iteration_table.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "sim/afd/afd_simulation.h"
#include "sim/process/child_pool.h"

namespace rlsim {
namespace {

constexpr double kGridContexts[] = {128, 1024, 8192, 65536};

std::vector<int64_t> grid_batches(int64_t max_batch) {
  std::vector<int64_t> batches;
  for (int64_t b = 1; b < max_batch; b *= 2) batches.push_back(b);
  batches.push_back(max_batch);
  return batches;
}

double lerp(double x0, double y0, double x1, double y1, double x) {
  return x1 == x0 ? y0 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

}  // namespace

AfdScenario afd_point_scenario(const Scenario& s, int64_t batch, int64_t context) {
  assert(s.rollout.afd && "afd_point_scenario needs rollout.afd");
  const AfdRolloutSpec& a = *s.rollout.afd;
  AfdScenario point;
  point.name = s.name + "-afd-point";
  point.file = s.file;
  point.seed = s.seed;
  point.model = s.model;
  point.cluster = s.cluster;
  point.cost_model = s.cost_model;
  point.profile = s.profile;
  AfdDeploymentSpec& d = point.afd;
  d.attention_pool = s.rollout.pool;
  d.ffn_pool = a.ffn_pool;
  d.attention_gpus = a.attention_gpus;
  d.ffn_gpus = a.ffn_gpus;
  d.ffn_tp = a.ffn_tp;
  d.micro_batches = static_cast<int>(std::min<int64_t>(a.micro_batches, batch));
  d.batch = batch;
  d.context = context;
  d.precisions.weights = s.rollout.weights;
  d.precisions.kv = s.rollout.kv_cache;
  d.precisions.dispatch = a.dispatch;
  d.precisions.combine = a.combine;
  return point;
}

AfdIterationTable AfdIterationTable::build(const Scenario& scenario, int jobs_at_once) {
  AfdIterationTable table;
  table.batches_ = grid_batches(scenario.rollout.max_batch);
  table.contexts_.assign(std::begin(kGridContexts), std::end(kGridContexts));
  const size_t points = table.batches_.size() * table.contexts_.size();
  table.seconds_.assign(points, 0.0);
  std::vector<long> jobs(points);
  for (size_t point = 0; point < points; ++point) jobs[point] = static_cast<long>(point);
  auto simulate_point = [&](long point) {
    const auto p = static_cast<size_t>(point);
    const int64_t batch = table.batches_[p / table.contexts_.size()];
    const auto context = static_cast<int64_t>(table.contexts_[p % table.contexts_.size()]);
    char text[64];
    std::snprintf(text, sizeof text, "%.17g",
                  simulate_afd(afd_point_scenario(scenario, batch, context)).metrics.tpot_s);
    return std::string(text);
  };
  const ChildOutcome failure =
      run_in_children(jobs, jobs_at_once, simulate_point, [&](const ChildOutcome& done) {
        if (done.ok) table.seconds_[static_cast<size_t>(done.job)] = std::strtod(done.text.c_str(), nullptr);
      });
  if (!failure.ok) {
    throw std::runtime_error("AFD iteration table: the layer-level simulation of a grid point failed: " +
                             failure.text);
  }
  return table;
}

double AfdIterationTable::at_batch(size_t b, double context) const {
  size_t c = 1;
  while (c + 1 < contexts_.size() && contexts_[c] < context) ++c;
  // Below the first point and past the last, the nearest segment is extended.
  return std::max(0.0, lerp(contexts_[c - 1], at(b, c - 1), contexts_[c], at(b, c), context));
}

double AfdIterationTable::seconds(int64_t batch, double context) const {
  assert(batch >= 1 && "a decode iteration needs a sequence");
  const auto upper = std::lower_bound(batches_.begin(), batches_.end(), batch);
  if (upper == batches_.end()) return at_batch(batches_.size() - 1, context);  // above max_batch: the largest
  const auto b = static_cast<size_t>(upper - batches_.begin());
  if (*upper == batch || b == 0) return at_batch(b, context);
  return lerp(static_cast<double>(batches_[b - 1]), at_batch(b - 1, context),
              static_cast<double>(batches_[b]), at_batch(b, context), static_cast<double>(batch));
}

}  // namespace rlsim
