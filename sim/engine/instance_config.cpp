// KV capacity of an instance's GPUs after weights and the activation reserve, from the memory
// model (models/memory/inference_memory.h) that `validate` and the feasibility checks use too.
#include "sim/engine/instance_config.h"

#include "models/memory/inference_memory.h"

namespace rlsim {

double kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int tp, int pp, Precision weights,
                          Precision kv, double activation_fraction) {
  return tp_instance_memory(model, card, tp, pp, weights, kv, activation_fraction).kv_capacity_tokens;
}

double afd_kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int attention_gpus,
                              Precision weights, Precision kv, double activation_fraction) {
  return afd_attention_memory(model, card, attention_gpus, weights, kv, activation_fraction)
      .kv_capacity_tokens;
}

}  // namespace rlsim
