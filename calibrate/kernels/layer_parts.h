// The kernels a decoder layer is built from, each ready to enqueue on a stream with its buffers
// allocated once: a cuBLASLt GEMM, the suite's split-KV decode attention and the unfused prefill
// attention. The GEMM and attention measures time them one by one; the overhead measures
// (overhead.cu) chain them into a layer and time it whole.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

#include "shapes.h"
#include "suite.h"

namespace rlsim_kernels {

/// Row-major C[m,n] = A[m,k]·W[k,n] through cuBLASLt on caller-owned buffers (bf16, or fp8 e4m3
/// inputs); valid() is false when cuBLASLt has no algorithm for the shape and type.
class LtGemm {
 public:
  LtGemm(cublasLtHandle_t lt, int m, int n, int k, bool fp8, const void* a, const void* w, void* d,
         void* workspace, size_t workspace_bytes);
  ~LtGemm();
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;
  bool valid() const { return found_ > 0; }
  void enqueue(cudaStream_t stream) const;

 private:
  cublasLtHandle_t lt_;
  const void *a_, *w_;
  void *d_, *workspace_;
  size_t workspace_bytes_;
  cublasLtMatmulDesc_t desc_{};
  cublasLtMatrixLayout_t la_{}, lb_{}, ld_{};
  cublasLtMatmulHeuristicResult_t heuristic_{};
  int found_ = 0;
};

/// Decode attention of `batch` sequences over `kv_len` cached positions (bf16 or fp8 KV): our
/// split-KV kernel and its combine, with its own buffers.
class DecodeAttention {
 public:
  DecodeAttention(const AttentionDesign& a, int batch, int kv_len, bool fp8_kv);
  ~DecodeAttention();
  DecodeAttention(const DecodeAttention&) = delete;
  DecodeAttention& operator=(const DecodeAttention&) = delete;
  void enqueue(cudaStream_t stream) const;
  static constexpr int kernels = 2;

 private:
  AttentionDesign design_;
  int batch_, kv_len_, splits_;
  bool fp8_;
  void *q_ = nullptr, *k_ = nullptr, *v_ = nullptr, *out_ = nullptr;
  float *part_o_ = nullptr, *part_ml_ = nullptr;
};

/// Causal prefill attention of one sequence of `len` tokens, unfused (cuBLAS QKᵀ, our causal
/// softmax, PV), with its own buffers; `handle` is set to the stream on each enqueue.
class PrefillAttention {
 public:
  PrefillAttention(cublasHandle_t handle, const AttentionDesign& a, int len);
  ~PrefillAttention();
  PrefillAttention(const PrefillAttention&) = delete;
  PrefillAttention& operator=(const PrefillAttention&) = delete;
  void enqueue(cudaStream_t stream) const;
  static constexpr int kernels = 3;

 private:
  cublasHandle_t handle_;
  AttentionDesign design_;
  int len_;
  void *q_ = nullptr, *k_ = nullptr, *v_ = nullptr, *s_ = nullptr, *o_ = nullptr;
  void** pointers_ = nullptr;  ///< per query head: Q, K, V, S, O (GQA heads share K and V)
};

}  // namespace rlsim_kernels
