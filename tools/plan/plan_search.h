// `rlsim plan`'s search: branch and bound over the arrangement space (plan_space.h). Arrangements
// are taken in order of their step-time lower bound (plan_bound.h), a fixed number at a time, each
// simulated in a child process (tools/advice/trial_run.h); before each batch, an arrangement's bound
// is raised to what the phases measured so far say of it (plan_components.h), and it is left out
// when a simulated one is already at least as fast as that and at least as cheap per step as that
// costs (it cannot reach the front of step time against cost), or, with a target step time, when
// that misses the target or it costs more per hour than an arrangement that met it. A memory
// refusal costs a load, not a simulation. The batches are the same whatever `--jobs`, so the same
// scenario gives the same plan, to the byte, on any machine.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"
#include "tools/advice/trial_run.h"
#include "tools/plan/plan_space.h"

namespace rlsim {

enum class PointStatus {
  simulated,
  refused_memory,  ///< does not fit the GPUs' memory (found by loading it)
  refused,         ///< the scenario refused it otherwise (a TP that does not divide the heads, …)
  dominated,       ///< its bound cannot reach the front: not simulated
  misses_target,   ///< its bound is above the target step time: not simulated
  dearer,          ///< costs more per hour than an arrangement that met the target: not simulated
  not_reached,     ///< left when the --max-points limit was reached
};

/// "simulated", "does not fit memory", … (plan.csv's status column).
std::string status_name(PointStatus status);

struct PlanPoint {
  Arrangement arrangement;
  double bound_s = 0.0;              ///< the datasheet lower bound on its steady step (plan_bound.h)
  double weight_sync_bound_s = 0.0;  ///< of which its weight syncs per step
  int steady_steps = 1;
  /// What the search held its step to be at least when it decided (the bound, or an estimate
  /// from measured components: plan_components.h).
  double estimate_s = 0.0;
  PointStatus status = PointStatus::not_reached;
  TrialFigures figures;  ///< when simulated or refused
  bool reused = false;   ///< its figures come from an earlier plan in the folder (plan_reuse.h)

  /// The steady step's GPU cost: the arrangement's price per hour over the steady step time.
  double usd_per_step() const { return arrangement.usd_per_hour * figures.steady_step_s / 3600.0; }
};

struct PlanSearchOptions {
  int jobs = 1;
  int max_points = 3000;  ///< arrangements loaded or simulated at most
  std::optional<double> target_step_s;
  bool exhaustive = false;  ///< every arrangement, no bound: the grid, to check the search against
};

/// Arrangements handed to the children at once; fixed, so that pruning does not depend on --jobs.
constexpr int kPlanBatch = 8;

/// Searches `points` (their bounds set; status not_reached, or simulated or refused when an earlier
/// plan's figures were reused: those count as simulated and are not simulated again) for `file`
/// loaded with `base` and each
/// arrangement's overrides; `finished` is called as each arrangement is done, with how many may still
/// be loaded at most (those not yet reached, within --max-points) and the arrangement's wall time.
void search_plan(const std::string& file, const LoadOptions& base, const PoolShape& pools,
                 std::vector<PlanPoint>& points, const PlanSearchOptions& options,
                 const std::function<void(long at_most_left, double job_s)>& finished);

/// The simulated points no other simulated point beats on both steady step time and cost per step
/// (ties kept once), by step time.
std::vector<size_t> pareto_front(const std::vector<PlanPoint>& points);

/// The arrangement the plan recommends: with a target, the cheapest per hour that met it (then the
/// faster); else the fastest (then the cheaper per step), or with `by_cost` the cheapest per step.
std::optional<size_t> chosen_point(const std::vector<PlanPoint>& points, const PlanSearchOptions& options,
                                   bool by_cost);

}  // namespace rlsim
