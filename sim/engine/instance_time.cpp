// The instance's time formulas: decode and prefill on the cost model, TP all-reduces by the
// alpha-beta model, KV swaps over the host link, and the decode-stretch quadratic.
#include "sim/engine/instance_time.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "models/arch_params.h"
#include "models/timing/collectives.h"
#include "models/timing/inference_time.h"

namespace rlsim {

double InstanceTime::iteration_s(double batch, double mean_context) const {
  const auto b = static_cast<int64_t>(batch);
  if (config_.afd_table) return config_.afd_table->seconds(b, mean_context);
  return config_.decode_cost->seconds(b, mean_context) + tp_allreduce_s(batch);
}

double InstanceTime::prefill_s(double tokens, double context_tokens) const {
  return prefill_seconds(*config_.model, *config_.card, *config_.cost, static_cast<int64_t>(tokens),
                         static_cast<int64_t>(context_tokens), config_.tp, config_.weights) +
         tp_allreduce_s(tokens);
}

double InstanceTime::tp_allreduce_s(double tokens) const {
  if (config_.tp <= 1) return 0.0;
  const LinkSpec link{config_.scale_up_bytes_per_s, config_.scale_up_latency_s};
  const int per_forward = tp_allreduces_per_forward(*config_.model);
  return per_forward *
         all_reduce_seconds(
             tokens * tp_allreduce_bytes_per_token(*config_.model, Precision::bf16) / per_forward, config_.tp,
             link);
}

double InstanceTime::kv_swap_s(double kv_tokens) const {
  return kv_tokens * kv_bytes_per_token(*config_.model, config_.kv) / config_.tp / config_.swap_bytes_per_s;
}

double DecodeStretch::slope_s() const {
  return iterations > 1 ? 2.0 * (mean_s - first_s) / (static_cast<double>(iterations) - 1.0) : 0.0;
}

double DecodeStretch::time_s(long done) const {
  const auto d = static_cast<double>(done);
  return d * first_s + slope_s() * d * static_cast<double>(done - 1) / 2.0;
}

DecodeStretch::Progress DecodeStretch::progress(double elapsed_s) const {
  // time_s(d) = a d² + b d: solve for the iteration under way, then step to the exact one.
  const double n = static_cast<double>(iterations);
  const double a = slope_s() / 2.0, b = first_s - slope_s() / 2.0;
  double estimate = elapsed_s / mean_s;
  const double discriminant = b * b + 4.0 * a * elapsed_s;
  if (a != 0.0 && discriminant >= 0.0) estimate = (-b + std::sqrt(discriminant)) / (2.0 * a);
  estimate = std::clamp(estimate, 1.0, n);
  long done = std::clamp<long>(static_cast<long>(std::ceil(estimate - 1e-9)), 1, iterations);
  while (done < iterations && time_s(done) < elapsed_s) ++done;
  while (done > 1 && time_s(done - 1) >= elapsed_s) --done;
  return {done, time_s(done) - elapsed_s};
}

}  // namespace rlsim
