// The attention kernels training runs (forward and backward), priced from their measured throughput
// instead of the datasheet roofline's one efficiency for every attention kernel. Training frameworks
// differ here: PyTorch FSDP trainers (verl, OpenRLHF, RLinf) load models with Hugging Face's
// flash_attention_2; Megatron-Core (NeMo RL) runs Transformer Engine's cuDNN fused attention; FA3
// is Hopper's FlashAttention-3.
//
// Throughput: Shah et al., "FlashAttention-3", arXiv 2407.08608, Figures 5 and 6 (H100 SXM5, BF16,
// head dim 128, batch × sequence = 16K tokens): the forward pass with a causal mask, the backward
// pass as the paper measures it (without mask), at sequence lengths 512 to 16K. They price cards
// with the H100's tensor cores (its 989 TFLOPS dense BF16 peak: H100, H800, H200); on other cards no
// attention kernel is measured in the repository, so the cost model prices the forward and the
// backward runs at the forward's efficiency. A FlashAttention-style backward recomputes the scores:
// 2.5× the forward's FLOPs (five matrix products to forward's two: Dao 2023, FlashAttention-2,
// §3.2), where an unfused kernel that kept the scores does 2× (`cost_model`).
#pragma once

#include <optional>
#include <string>

#include "models/named_enum.h"

namespace rlsim {

/// `training.attention_kernel`.
#define RLSIM_ATTENTION_KERNELS(X) X(flash2) X(flash3) X(cudnn) X(cost_model)
RLSIM_NAMED_ENUM(AttentionKernel, RLSIM_ATTENTION_KERNELS)

/// Fractions of the dense 16-bit peak a kernel reaches.
struct AttentionKernelEfficiency {
  double forward = 0.0;
  double backward = 0.0;
};

/// The kernel's measured fractions at `sequence_tokens` (interpolated in log2 of the length between
/// the measured 512 to 16K; held at the ends) on a card whose dense 16-bit peak is
/// `card_peak_flops`; nothing for `cost_model` or a card without the H100's tensor cores.
std::optional<AttentionKernelEfficiency> attention_kernel_efficiency(AttentionKernel kernel,
                                                                     double sequence_tokens,
                                                                     double card_peak_flops);

/// What prices `kernel` on a card of `card_peak_flops`, in a summary's words: "measured on H100,
/// FlashAttention-3 paper", "cost model, backward 2.5x its forward FLOPs" or "cost model".
std::string attention_kernel_pricing(AttentionKernel kernel, double card_peak_flops);

/// Backward FLOPs over forward FLOPs of the kernel's attention core.
double attention_backward_flop_ratio(AttentionKernel kernel);

}  // namespace rlsim
