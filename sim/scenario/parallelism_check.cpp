// Tensor-parallel head splits and pipeline stages checked at the scenario's fields (parallelism_check.h).
#include "sim/scenario/parallelism_check.h"

#include "models/tensor_parallel.h"

namespace rlsim {
namespace {

void check_tp(const ModelArch& model, int tp, int gpus_per_node, const YamlReader& block) {
  const std::string problem = tensor_parallel_problem(model, tp);
  if (problem.empty()) return;
  block.fail("tp", problem + "; tp values that split it on this pool's " + std::to_string(gpus_per_node) +
                       "-GPU nodes: " + tensor_parallel_degrees_text(model, gpus_per_node));
}

}  // namespace

void check_rollout_tensor_parallel(const Scenario& s, const YamlReader& rollout) {
  if (s.rollout.afd) return;
  check_tp(s.model, s.rollout.tp, s.cluster.pool(s.rollout.pool)->gpus_per_node, rollout);
  if (s.rollout.pp > s.model.layers)
    rollout.fail("pp", "pp " + std::to_string(s.rollout.pp) + " leaves a pipeline stage without a layer: " +
                           s.model.name + " has " + std::to_string(s.model.layers) + " layers");
}

void check_training_tensor_parallel(const Scenario& s, const YamlReader& training) {
  check_tp(s.model, s.training.tp, s.cluster.pool(s.training.pool)->gpus_per_node, training);
}

}  // namespace rlsim
