// Whether the declared tensor parallelism can split the model (models/tensor_parallel.h), checked
// as input: a TP degree that would hand a GPU part of an attention head is an InputError at the
// field's `tp`, naming the degrees that work. An inference replica's pipeline stages (`pp`) each
// need a layer.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// At `rollout`'s tp and pp (an RL rollout or a serving deployment; AFD instances have none).
void check_rollout_tensor_parallel(const Scenario& s, const YamlReader& rollout);
/// At `training`'s tp.
void check_training_tensor_parallel(const Scenario& s, const YamlReader& training);

}  // namespace rlsim
