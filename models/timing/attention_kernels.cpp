// Measured attention throughput of the training kernels (see attention_kernels.h).
#include "models/timing/attention_kernels.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rlsim {
namespace {

/// FlashAttention-3 (arXiv 2407.08608) on H100 SXM5, BF16, head dim 128, TFLOPS at sequence lengths
/// 512, 1K, 2K, 4K, 8K and 16K: forward with a causal mask (Figure 5), backward (Figure 6).
struct MeasuredKernel {
  std::array<double, 6> forward_tflops;
  std::array<double, 6> backward_tflops;
};

const MeasuredKernel* measured(AttentionKernel kernel) {
  static const MeasuredKernel flash2{{191, 260, 298, 319, 333, 335}, {214, 260, 291, 310, 318, 322}};
  static const MeasuredKernel flash3{{292, 423, 521, 579, 602, 616}, {316, 424, 501, 542, 559, 561}};
  static const MeasuredKernel cudnn{{315, 410, 484, 518, 529, 539}, {305, 408, 465, 499, 518, 516}};
  switch (kernel) {
    case AttentionKernel::flash2: return &flash2;
    case AttentionKernel::flash3: return &flash3;
    case AttentionKernel::cudnn: return &cudnn;
    case AttentionKernel::cost_model: break;
  }
  return nullptr;
}

constexpr double kH100PeakTflops = 989.0;

double interpolate(const std::array<double, 6>& tflops, double sequence_tokens) {
  // Lengths 2^9 .. 2^14.
  const double position = std::clamp(std::log2(std::max(sequence_tokens, 1.0)) - 9.0, 0.0, 5.0);
  const auto low = static_cast<size_t>(std::floor(position));
  const size_t high = std::min<size_t>(low + 1, 5);
  const double t = position - static_cast<double>(low);
  return (tflops[low] * (1.0 - t) + tflops[high] * t) / kH100PeakTflops;
}

}  // namespace

std::optional<AttentionKernelEfficiency> attention_kernel_efficiency(AttentionKernel kernel,
                                                                     double sequence_tokens,
                                                                     double card_peak_flops) {
  const MeasuredKernel* m = measured(kernel);
  if (!m || std::abs(card_peak_flops - kH100PeakTflops * 1e12) > 1e9) return std::nullopt;
  return AttentionKernelEfficiency{interpolate(m->forward_tflops, sequence_tokens),
                                   interpolate(m->backward_tflops, sequence_tokens)};
}

std::string attention_kernel_pricing(AttentionKernel kernel, double card_peak_flops) {
  if (attention_kernel_efficiency(kernel, 4096, card_peak_flops))
    return "measured on H100, FlashAttention-3 paper";
  return kernel == AttentionKernel::cost_model ? "cost model" : "cost model, backward 2.5x its forward FLOPs";
}

double attention_backward_flop_ratio(AttentionKernel kernel) {
  return kernel == AttentionKernel::cost_model ? 2.0 : 2.5;
}

}  // namespace rlsim
