// GEMMs through cuBLASLt (bf16 everywhere, fp8 e4m3 on compute capability >= 8.9) over the
// projection and FFN shapes of catalog models with TP splits, and grouped (batched) expert GEMMs
// through cuBLAS. Row-major C[m,n] = A[m,k]·W[k,n] is computed as the column-major
// D[n,m] = Wᵀ·A with transa = T, transb = N (the layout cuBLASLt requires for fp8).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <algorithm>

#include "layer_parts.h"

namespace rlsim_kernels {
namespace {

void check_cublas(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "rlsim-kernels: %s failed: cuBLAS status %d\n", what, static_cast<int>(status));
  std::exit(1);
}
#define RLSIM_CUBLAS(call) check_cublas((call), #call)

__device__ float hash_unit(size_t i) {
  unsigned x = static_cast<unsigned>(i * 2654435761u) ^ 0x9e3779b9u;
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  return (x & 0xffff) / 32768.0f - 1.0f;  // [-1, 1)
}

__global__ void fill_bf16(__nv_bfloat16* p, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = __float2bfloat16(hash_unit(i));
}

__global__ void fill_fp8(__nv_fp8_e4m3* p, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = __nv_fp8_e4m3(hash_unit(i));
}

struct Buffers {
  void *a = nullptr, *w = nullptr, *d = nullptr, *workspace = nullptr;
  size_t workspace_bytes = size_t{64} << 20;
};

}  // namespace

void fill_random(void* p, size_t elements, bool fp8) {
  if (fp8)
    fill_fp8<<<1024, 256>>>(static_cast<__nv_fp8_e4m3*>(p), elements);
  else
    fill_bf16<<<1024, 256>>>(static_cast<__nv_bfloat16*>(p), elements);
  RLSIM_CUDA(cudaGetLastError());
}

LtGemm::LtGemm(cublasLtHandle_t lt, int m, int n, int k, bool fp8, const void* a, const void* w, void* d,
               void* workspace, size_t workspace_bytes)
    : lt_(lt), a_(a), w_(w), d_(d), workspace_(workspace), workspace_bytes_(workspace_bytes) {
  const cudaDataType_t in = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
  RLSIM_CUBLAS(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
  RLSIM_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa));
  RLSIM_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb));
  RLSIM_CUBLAS(cublasLtMatrixLayoutCreate(&la_, in, k, n, k));  // W stored k×n (column-major), used as Wᵀ
  RLSIM_CUBLAS(cublasLtMatrixLayoutCreate(&lb_, in, k, m, k));  // A stored k×m
  RLSIM_CUBLAS(cublasLtMatrixLayoutCreate(&ld_, CUDA_R_16BF, n, m, n));  // D n×m = C row-major m×n
  cublasLtMatmulPreference_t pref;
  RLSIM_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  RLSIM_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                    &workspace_bytes_, sizeof workspace_bytes_));
  if (cublasLtMatmulAlgoGetHeuristic(lt, desc_, la_, lb_, ld_, ld_, pref, 1, &heuristic_, &found_) !=
      CUBLAS_STATUS_SUCCESS)
    found_ = 0;
  cublasLtMatmulPreferenceDestroy(pref);
}

LtGemm::~LtGemm() {
  cublasLtMatrixLayoutDestroy(la_);
  cublasLtMatrixLayoutDestroy(lb_);
  cublasLtMatrixLayoutDestroy(ld_);
  cublasLtMatmulDescDestroy(desc_);
}

void LtGemm::enqueue(cudaStream_t stream) const {
  const float alpha = 1.0f, beta = 0.0f;
  RLSIM_CUBLAS(cublasLtMatmul(lt_, desc_, &alpha, w_, la_, a_, lb_, &beta, d_, ld_, d_, ld_, &heuristic_.algo,
                              workspace_, workspace_bytes_, stream));
}

namespace {

/// Times one Lt matmul; returns 0 when cuBLASLt has no algorithm for the shape and type.
double time_lt_gemm(cublasLtHandle_t lt, Timer& timer, const Buffers& b, int m, int n, int k, bool fp8) {
  const LtGemm gemm(lt, m, n, k, fp8, b.a, b.w, b.d, b.workspace, b.workspace_bytes);
  if (!gemm.valid()) return 0.0;
  return timer.median_seconds([&] { gemm.enqueue(0); });
}

Point gemm_point(const std::string& op, const std::string& name, const std::string& model, bool fp8,
                 long long groups, long long m, long long n, long long k, double seconds) {
  Point p;
  p.op = op;
  p.name = name;
  p.model = model;
  p.dtype = fp8 ? "fp8" : "bf16";
  if (groups > 1) p.fields.push_back({"groups", std::to_string(groups)});
  p.fields.push_back({"m", std::to_string(m)});
  p.fields.push_back({"n", std::to_string(n)});
  p.fields.push_back({"k", std::to_string(k)});
  p.seconds = seconds;
  const double in = fp8 ? 1.0 : 2.0;
  p.flops = 2.0 * groups * m * n * k;
  p.bytes = groups * ((static_cast<double>(m) * k + static_cast<double>(k) * n) * in +
                      static_cast<double>(m) * n * 2.0);
  return p;
}

void measure_dense(const Options& o, const DeviceInfo& d, Timer& timer, std::vector<Point>& points) {
  cublasLtHandle_t lt;
  RLSIM_CUBLAS(cublasLtCreate(&lt));
  const bool has_fp8 = d.compute_major * 10 + d.compute_minor >= 89;
  const std::vector<int> tokens = token_counts(o.quick);
  const int max_m = *std::max_element(tokens.begin(), tokens.end());
  for (const DenseModel& model : dense_models(o.quick)) {
    for (int tp : tp_degrees(o.quick)) {
      const int head_dim = model.head_dim;
      struct Shape {
        const char* op;
        int n, k;
      };
      const Shape shapes[] = {
          {"qkv_proj", (model.q_heads / tp + 2 * std::max(1, model.kv_heads / tp)) * head_dim, model.hidden},
          {"o_proj", model.hidden, model.q_heads * head_dim / tp},
          {"gate_up_proj", 2 * model.ffn / tp, model.hidden},
          {"down_proj", model.hidden, model.ffn / tp}};
      for (const Shape& s : shapes) {
        Buffers b;
        RLSIM_CUDA(cudaMalloc(&b.a, static_cast<size_t>(max_m) * s.k * 2));
        RLSIM_CUDA(cudaMalloc(&b.w, static_cast<size_t>(s.k) * s.n * 2));
        RLSIM_CUDA(cudaMalloc(&b.d, static_cast<size_t>(max_m) * s.n * 2));
        RLSIM_CUDA(cudaMalloc(&b.workspace, b.workspace_bytes));
        for (bool fp8 : {false, true}) {
          if (fp8 && !has_fp8) continue;
          fill_random(b.a, static_cast<size_t>(max_m) * s.k, fp8);
          fill_random(b.w, static_cast<size_t>(s.k) * s.n, fp8);
          for (int m : tokens) {
            const double t = time_lt_gemm(lt, timer, b, m, s.n, s.k, fp8);
            if (t <= 0.0) continue;  // no algorithm (fp8 needs dimensions divisible by 16)
            const std::string name = std::string(model.name) + "." + s.op + ".tp" + std::to_string(tp);
            points.push_back(gemm_point("gemm", name, model.name, fp8, 1, m, s.n, s.k, t));
          }
        }
        RLSIM_CUDA(cudaFree(b.a));
        RLSIM_CUDA(cudaFree(b.w));
        RLSIM_CUDA(cudaFree(b.d));
        RLSIM_CUDA(cudaFree(b.workspace));
      }
    }
    std::fprintf(stderr, "  GEMMs of %s done (%zu points so far)\n", model.name, points.size());
  }
  cublasLtDestroy(lt);
}

void measure_grouped(const Options& o, Timer& timer, std::vector<Point>& points) {
  cublasHandle_t handle;
  RLSIM_CUBLAS(cublasCreate(&handle));
  const std::vector<int> experts = o.quick ? std::vector<int>{8, 32} : std::vector<int>{8, 16, 32, 64, 128};
  const std::vector<int> per_expert =
      o.quick ? std::vector<int>{4, 64, 512} : std::vector<int>{1, 4, 16, 64, 256, 1024};
  for (const MoeModel& model : moe_models()) {
    struct Shape {
      const char* op;
      int n, k;
    };
    const Shape shapes[] = {{"expert_gate_up", 2 * model.expert_ffn, model.hidden},
                            {"expert_down", model.hidden, model.expert_ffn}};
    for (const Shape& s : shapes) {
      for (int e : experts) {
        const int max_m = per_expert.back();
        void *a, *w, *d;
        RLSIM_CUDA(cudaMalloc(&a, static_cast<size_t>(e) * max_m * s.k * 2));
        RLSIM_CUDA(cudaMalloc(&w, static_cast<size_t>(e) * s.k * s.n * 2));
        RLSIM_CUDA(cudaMalloc(&d, static_cast<size_t>(e) * max_m * s.n * 2));
        fill_random(a, static_cast<size_t>(e) * max_m * s.k, false);
        fill_random(w, static_cast<size_t>(e) * s.k * s.n, false);
        for (int m : per_expert) {
          const float alpha = 1.0f, beta = 0.0f;
          const double t = timer.median_seconds([&] {
            RLSIM_CUBLAS(cublasGemmStridedBatchedEx(
                handle, CUBLAS_OP_T, CUBLAS_OP_N, s.n, m, s.k, &alpha, w, CUDA_R_16BF, s.k,
                static_cast<long long>(s.k) * s.n, a, CUDA_R_16BF, s.k, static_cast<long long>(max_m) * s.k,
                &beta, d, CUDA_R_16BF, s.n, static_cast<long long>(max_m) * s.n, e, CUBLAS_COMPUTE_32F,
                CUBLAS_GEMM_DEFAULT));
          });
          const std::string name = std::string(model.name) + "." + s.op + ".e" + std::to_string(e);
          points.push_back(gemm_point("grouped_gemm", name, model.name, false, e, m, s.n, s.k, t));
        }
        RLSIM_CUDA(cudaFree(a));
        RLSIM_CUDA(cudaFree(w));
        RLSIM_CUDA(cudaFree(d));
      }
    }
  }
  cublasDestroy(handle);
  std::fprintf(stderr, "  grouped GEMMs done (%zu points so far)\n", points.size());
}

}  // namespace

void measure_gemms(const Options& o, const DeviceInfo& d, Timer& timer, std::vector<Point>& points) {
  measure_dense(o, d, timer, points);
  measure_grouped(o, timer, points);
}

}  // namespace rlsim_kernels
