// Lower bounds on an arrangement's steady step time, so that `rlsim plan` can leave out, without
// simulating them, arrangements that cannot reach its front. Every bound is work the simulation
// must do, at the card's datasheet peak or at the scenario's own cost model where that is cheap to
// ask, on the very trajectories the simulation draws (the scenario's seed replayed through the same
// sampler, sim/engine/workload.h). For one step on G rollout GPUs at TP t:
//   rollout R ≥ max( 2·active params·(prompt + output tokens) / (G · peak FLOP/s),
//                    (KV bytes read by every decoded token + active weight bytes · output tokens /
//                     max_batch) / (G · HBM bandwidth),
//                    output tokens / (B · instances) iterations of B sequences at their mean context,
//                    B the most a step can run at once (max_batch, or its trajectories; not for
//                    pipeline-parallel instances, whose stages overlap micro-batches),
//                    the slowest trajectory alone, each of its tokens an iteration of its own: at
//                    least a decode iteration of batch 1 at its mean context as the simulation's
//                    instances price it (kernels by the scenario's cost model, TP all-reduces, the
//                    engine's gaps and CPU work; affine in the context), the all-reduces on the
//                    fastest scale-up link any of the pools or the card has, with no latency )
//   training T ≥ forward FLOPs per token (no attention) · tokens · (3 + forward-only passes)
//                / (G_train · peak FLOP/s of the training precision · the cost model's best GEMM
//                efficiency), then, on separate pools, the new weights over the trainer's NIC and
//                the link between the pools once per optimizer step (at least one hop of the
//                broadcast)
// and, over the n steady steps the run reports (docs/design.md, steady state):
//   colocated, disaggregated: the mean over the steady steps of R + T (each step runs both in turn);
//   overlap (staleness s):    the mean of the steady steps' T, and (Σ R of the steady steps from the
//                             (s+1)-th on + the last one's T) / n (rollouts run one step after another
//                             and may start at most s steps ahead of the trainer);
//   streaming:                the training and the rollout throughput of the lightest trajectories
//                             the window may hold (streaming_bound in plan_bound.cpp says which).
// tests/cli/test_plan.cpp checks every bound against its simulation on a small space.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"
#include "models/hardware.h"
#include "sim/scenario/scenario.h"
#include "tools/plan/plan_space.h"

namespace rlsim {

/// One trajectory's demands: what it decodes one token after another, and what it trains.
struct TrajectoryWork {
  double decode_tokens = 0.0;
  double kv_token_reads = 0.0;  ///< Σ over its decoded tokens of the context each one attends to
  double train_tokens = 0.0;    ///< its whole sequence
};

/// What one step of the workload asks of the GPUs, from its drawn trajectories.
struct StepWork {
  double prefill_tokens = 0.0;
  double output_tokens = 0.0;
  double kv_token_reads = 0.0;
  double train_tokens = 0.0;
  std::vector<TrajectoryWork> trajectories;
};

/// The work of each of the scenario's steps, drawn as its simulation draws them.
std::vector<StepWork> drawn_step_work(const Scenario& scenario);

/// The cards an arrangement uses.
struct ArrangementCards {
  const HardwareSpec* rollout = nullptr;
  const HardwareSpec* train = nullptr;
};

/// The decode iteration of one sequence as the simulation's instances price it, per card and TP
/// (each configuration made once): the scenario's cost model, engine preset and calibrated profile.
class DecodeFloors {
 public:
  explicit DecodeFloors(const Scenario& scenario);
  ~DecodeFloors();
  /// One decode iteration of `batch` sequences at `context` tokens on average on `card` at TP `tp`.
  double iteration_s(const HardwareSpec& card, int tp, double batch, double context);
  /// The highest fraction of a card's peak the cost model lets a GEMM reach.
  double gemm_efficiency() const { return gemm_efficiency_; }

 private:
  struct Instance;
  const Scenario& scenario_;
  std::unique_ptr<CostModel> cost_;
  std::optional<HardwareProfile> profile_;
  double gemm_efficiency_ = 1.0;
  std::map<std::pair<std::string, int>, std::unique_ptr<Instance>> by_card_tp_;
};

struct StepBound {
  double step_s = 0.0;         ///< the lower bound on the steady step time
  double weight_sync_s = 0.0;  ///< the lower bound on its weight syncs, per step (0 colocated)
  int steady_steps = 1;        ///< the steady steps the run will report (n)
};

/// The lower bound on `a`'s steady step time for `scenario`'s model and workload (`work`).
StepBound step_time_lower_bound(const Scenario& scenario, const std::vector<StepWork>& work,
                                const Arrangement& a, const ArrangementCards& cards, const PoolShape& pools,
                                DecodeFloors& floors);

}  // namespace rlsim
