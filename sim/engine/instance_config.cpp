// KV capacity of an instance's GPUs after weights and the activation reserve.
#include "sim/engine/instance_config.h"

#include "models/afd/afd_stages.h"
#include "models/arch_params.h"

namespace rlsim {

double kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int tp, Precision weights,
                          Precision kv, double activation_fraction) {
  const double memory = card.mem_capacity_bytes * tp * (1.0 - activation_fraction);
  return (memory - weight_bytes(model, weights)) / kv_bytes_per_token(model, kv);
}

double afd_kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int attention_gpus,
                              Precision weights, Precision kv, double activation_fraction) {
  const double per_gpu =
      card.mem_capacity_bytes * (1.0 - activation_fraction) - afd_attention_weight_bytes(model, weights);
  return attention_gpus * per_gpu / kv_bytes_per_token(model, kv);
}

}  // namespace rlsim
