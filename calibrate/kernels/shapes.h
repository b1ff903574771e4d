// The shapes the suite measures: projection and FFN GEMMs of catalog models (scenarios/catalog/
// models.yaml) with their tensor-parallel splits, MoE expert GEMMs, and attention designs.
#pragma once

#include <string>
#include <vector>

namespace rlsim_kernels {

struct DenseModel {
  const char* name;
  int hidden, ffn, q_heads, kv_heads, head_dim;
};

// Dense rows of the catalog (config.json of each model).
inline const std::vector<DenseModel>& dense_models(bool quick) {
  static const std::vector<DenseModel> all{{"llama-3-8b", 4096, 14336, 32, 8, 128},
                                           {"qwen3-8b", 4096, 12288, 32, 8, 128},
                                           {"qwen3-32b", 5120, 25600, 64, 8, 128},
                                           {"llama-3-70b", 8192, 28672, 64, 8, 128}};
  static const std::vector<DenseModel> few{all[0], all[3]};
  return quick ? few : all;
}

struct MoeModel {
  const char* name;
  int hidden, expert_ffn;
};

inline const std::vector<MoeModel>& moe_models() {
  static const std::vector<MoeModel> all{{"qwen3-30b-a3b", 2048, 768}, {"deepseek-v3", 7168, 2048}};
  return all;
}

struct AttentionDesign {
  const char* name;
  int q_heads, kv_heads, qk_dim, v_dim;
};

inline const std::vector<AttentionDesign>& attention_designs() {
  static const std::vector<AttentionDesign> all{{"mha", 32, 32, 128, 128},
                                                {"gqa", 32, 8, 128, 128},
                                                {"gqa-wide", 64, 8, 128, 128},
                                                {"mqa", 32, 1, 128, 128},
                                                {"mla-like", 16, 1, 576, 512}};
  return all;
}

inline std::vector<int> token_counts(bool quick) {
  if (quick) return {1, 16, 64, 256, 1024, 4096, 16384};
  return {1,   2,   4,    8,    16,   32,   64,   96,   128,  192,   256,  384,
          512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384};
}

inline std::vector<int> tp_degrees(bool quick) {
  return quick ? std::vector<int>{1, 8} : std::vector<int>{1, 2, 4, 8};
}

}  // namespace rlsim_kernels
