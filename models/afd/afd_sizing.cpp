// AFD batch and sparsity limits (see afd.h).
#include "models/afd/afd_sizing.h"

#include <cassert>

#include "models/arch_params.h"
#include "models/cost/roofline.h"

namespace rlsim {

AfdLimits afd_limits(const ModelArch& arch, const HardwareSpec& card, const AfdOptions& options) {
  assert(options.tpot_s > 0.0 && options.gpus_per_node >= 1 && card.nic_bw_bytes_per_s > 0.0 &&
         "AFD sizing needs a TPOT target and a NIC");
  AfdLimits limits;
  limits.stage_budget_s = options.tpot_s / 3.0;
  limits.node_network_bytes_per_s = options.gpus_per_node * card.nic_bw_bytes_per_s;
  const double bytes_per_token_layer =
      (options.dispatch_bytes_per_element + options.combine_bytes_per_element) * arch.hidden_size;
  limits.max_batch_network =
      limits.stage_budget_s * limits.node_network_bytes_per_s / (bytes_per_token_layer * arch.layers);
  limits.model_sparsity = moe_sparsity(arch);
  // FLOPs per weight byte at batch B: 2·B·s / bytes-per-weight; compute-bound at the ridge.
  const double ridge = compute_peak(card, decode_cost_precision(card)) / card.mem_bw_bytes_per_s;
  limits.min_batch_ffn = ridge * options.weight_bytes_per_element / (2.0 * limits.model_sparsity);
  limits.min_sparsity = ridge * options.weight_bytes_per_element / (2.0 * limits.max_batch_network);
  return limits;
}

}  // namespace rlsim
