// Attention. Decode: our split-KV kernel (flash-decoding style) for MHA/GQA/MQA and MLA-like
// shapes with bf16 or fp8 KV; each point reports its fraction of the measured HBM read bandwidth.
// Prefill: causal attention as cuBLAS batched GEMMs (QKᵀ, PV) around our causal softmax — an
// unfused implementation, so it is an upper bound on what a fused (FlashAttention) kernel takes.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cfloat>

#include "layer_parts.h"

namespace rlsim_kernels {
namespace {

constexpr int kWarps = 4;     // warps per block of the decode kernel
constexpr int kHeadTile = 4;  // query heads per block sharing one K/V stream
constexpr int kChunk = 256;   // KV positions per split

__device__ inline float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ inline float to_float(__nv_fp8_e4m3 x) { return static_cast<float>(x); }

/// Grid: (splits, kv_heads × head tiles, batch). Each warp walks positions of its split, scoring
/// kHeadTile query heads against one K row and accumulating V with an online softmax.
template <typename KvT, int DQK, int DV>
__global__ void decode_partial(const __nv_bfloat16* __restrict__ q, const KvT* __restrict__ k,
                               const KvT* __restrict__ v, float* __restrict__ part_o,
                               float* __restrict__ part_ml, int kv_len, int q_heads, int kv_heads, int splits,
                               float scale) {
  constexpr int QK_PER_LANE = (DQK + 31) / 32, V_PER_LANE = (DV + 31) / 32;
  const int split = blockIdx.x, b = blockIdx.z;
  const int tiles = (q_heads / kv_heads + kHeadTile - 1) / kHeadTile;
  const int kvh = blockIdx.y / tiles, tile = blockIdx.y % tiles;
  const int group = q_heads / kv_heads;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __shared__ float q_s[kHeadTile][DQK];
  __shared__ float red_m[kWarps][kHeadTile], red_l[kWarps][kHeadTile];
  __shared__ float red_o[kWarps][kHeadTile][DV];
  for (int i = threadIdx.x; i < kHeadTile * DQK; i += blockDim.x) {
    const int h = i / DQK, d = i % DQK, qh = kvh * group + tile * kHeadTile + h;
    q_s[h][d] = (tile * kHeadTile + h < group)
                    ? __bfloat162float(q[(static_cast<size_t>(b) * q_heads + qh) * DQK + d])
                    : 0.0f;
  }
  __syncthreads();
  float m[kHeadTile], l[kHeadTile], acc[kHeadTile][V_PER_LANE];
  for (int h = 0; h < kHeadTile; ++h) {
    m[h] = -FLT_MAX;
    l[h] = 0.0f;
    for (int j = 0; j < V_PER_LANE; ++j) acc[h][j] = 0.0f;
  }
  const size_t base = (static_cast<size_t>(b) * kv_heads + kvh) * kv_len;
  const int begin = split * kChunk, end = min(kv_len, begin + kChunk);
  for (int pos = begin + warp; pos < end; pos += kWarps) {
    const KvT* krow = k + (base + pos) * DQK;
    const KvT* vrow = v + (base + pos) * DV;
    float kv_k[QK_PER_LANE];
    for (int j = 0; j < QK_PER_LANE; ++j)
      kv_k[j] = lane + 32 * j < DQK ? to_float(krow[lane + 32 * j]) : 0.0f;
    float kv_v[V_PER_LANE];
    for (int j = 0; j < V_PER_LANE; ++j) kv_v[j] = lane + 32 * j < DV ? to_float(vrow[lane + 32 * j]) : 0.0f;
    for (int h = 0; h < kHeadTile; ++h) {
      float s = 0.0f;
      for (int j = 0; j < QK_PER_LANE; ++j) s += lane + 32 * j < DQK ? kv_k[j] * q_s[h][lane + 32 * j] : 0.0f;
      for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
      s *= scale;
      const float m_new = fmaxf(m[h], s);
      const float correction = __expf(m[h] - m_new), p = __expf(s - m_new);
      l[h] = l[h] * correction + p;
      for (int j = 0; j < V_PER_LANE; ++j) acc[h][j] = acc[h][j] * correction + p * kv_v[j];
      m[h] = m_new;
    }
  }
  for (int h = 0; h < kHeadTile; ++h) {
    if (lane == 0) {
      red_m[warp][h] = m[h];
      red_l[warp][h] = l[h];
    }
    for (int j = 0; j < V_PER_LANE; ++j) {
      if (lane + 32 * j < DV) red_o[warp][h][lane + 32 * j] = acc[h][j];
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kHeadTile * DV; i += blockDim.x) {
    const int h = i / DV, d = i % DV;
    if (tile * kHeadTile + h >= group) continue;
    float mm = -FLT_MAX;
    for (int w = 0; w < kWarps; ++w) mm = fmaxf(mm, red_m[w][h]);
    float ll = 0.0f, oo = 0.0f;
    for (int w = 0; w < kWarps; ++w) {
      const float c = red_l[w][h] > 0.0f ? __expf(red_m[w][h] - mm) : 0.0f;
      ll += red_l[w][h] * c;
      oo += red_o[w][h][d] * c;
    }
    const int qh = kvh * group + tile * kHeadTile + h;
    const size_t row = (static_cast<size_t>(b) * q_heads + qh) * splits + split;
    part_o[row * DV + d] = oo;
    if (d == 0) {
      part_ml[row * 2] = mm;
      part_ml[row * 2 + 1] = ll;
    }
  }
}

/// Merges the splits of each (batch, query head) into the output.
template <int DV>
__global__ void decode_combine(const float* __restrict__ part_o, const float* __restrict__ part_ml,
                               __nv_bfloat16* __restrict__ out, int splits) {
  const size_t row = blockIdx.x;
  float mm = -FLT_MAX;
  for (int s = 0; s < splits; ++s) mm = fmaxf(mm, part_ml[(row * splits + s) * 2]);
  for (int d = threadIdx.x; d < DV; d += blockDim.x) {
    float ll = 0.0f, oo = 0.0f;
    for (int s = 0; s < splits; ++s) {
      const size_t r = row * splits + s;
      const float c = part_ml[r * 2 + 1] > 0.0f ? __expf(part_ml[r * 2] - mm) : 0.0f;
      ll += part_ml[r * 2 + 1] * c;
      oo += part_o[r * DV + d] * c;
    }
    out[row * DV + d] = __float2bfloat16(ll > 0.0f ? oo / ll : 0.0f);
  }
}

/// Causal softmax in place over rows of S (bf16, L×L per head), scaled.
__global__ void causal_softmax(__nv_bfloat16* s, int len, float scale) {
  const size_t row = blockIdx.x;
  const int i = static_cast<int>(row % len);
  __nv_bfloat16* r = s + row * len;
  __shared__ float red[32];
  float mx = -FLT_MAX;
  for (int j = threadIdx.x; j <= i; j += blockDim.x) mx = fmaxf(mx, __bfloat162float(r[j]) * scale);
  for (int o = 16; o > 0; o /= 2) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = mx;
  __syncthreads();
  mx = -FLT_MAX;
  for (int w = 0; w < static_cast<int>(blockDim.x / 32); ++w) mx = fmaxf(mx, red[w]);
  __syncthreads();
  float sum = 0.0f;
  for (int j = threadIdx.x; j <= i; j += blockDim.x) sum += __expf(__bfloat162float(r[j]) * scale - mx);
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = sum;
  __syncthreads();
  sum = 0.0f;
  for (int w = 0; w < static_cast<int>(blockDim.x / 32); ++w) sum += red[w];
  for (int j = threadIdx.x; j < len; j += blockDim.x) {
    r[j] = __float2bfloat16(j <= i ? __expf(__bfloat162float(r[j]) * scale - mx) / sum : 0.0f);
  }
}

}  // namespace

DecodeAttention::DecodeAttention(const AttentionDesign& a, int batch, int kv_len, bool fp8_kv)
    : design_(a), batch_(batch), kv_len_(kv_len), splits_((kv_len + kChunk - 1) / kChunk), fp8_(fp8_kv) {
  const size_t kv_rows = static_cast<size_t>(batch) * a.kv_heads * kv_len;
  const size_t kv_bytes = fp8_kv ? 1 : 2;
  RLSIM_CUDA(cudaMalloc(&q_, static_cast<size_t>(batch) * a.q_heads * a.qk_dim * 2));
  RLSIM_CUDA(cudaMalloc(&k_, kv_rows * a.qk_dim * kv_bytes));
  RLSIM_CUDA(cudaMalloc(&v_, kv_rows * a.v_dim * kv_bytes));
  RLSIM_CUDA(cudaMalloc(&out_, static_cast<size_t>(batch) * a.q_heads * a.v_dim * 2));
  RLSIM_CUDA(
      cudaMalloc(&part_o_, static_cast<size_t>(batch) * a.q_heads * splits_ * a.v_dim * sizeof(float)));
  RLSIM_CUDA(cudaMalloc(&part_ml_, static_cast<size_t>(batch) * a.q_heads * splits_ * 2 * sizeof(float)));
  fill_random(q_, static_cast<size_t>(batch) * a.q_heads * a.qk_dim, false);
  fill_random(k_, kv_rows * a.qk_dim, fp8_kv);
  fill_random(v_, kv_rows * a.v_dim, fp8_kv);
}

DecodeAttention::~DecodeAttention() {
  for (void* p : {q_, k_, v_, out_, static_cast<void*>(part_o_), static_cast<void*>(part_ml_)}) cudaFree(p);
}

namespace {

template <typename KvT, int DQK, int DV>
void launch_decode(cudaStream_t stream, const AttentionDesign& a, int batch, int kv_len, int splits,
                   const void* q, const void* k, const void* v, void* out, float* part_o, float* part_ml) {
  const int tiles = (a.q_heads / a.kv_heads + kHeadTile - 1) / kHeadTile;
  const dim3 grid(splits, a.kv_heads * tiles, batch);
  const float scale = 1.0f / sqrtf(static_cast<float>(DQK));
  decode_partial<KvT, DQK, DV><<<grid, kWarps * 32, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(q), static_cast<const KvT*>(k), static_cast<const KvT*>(v), part_o,
      part_ml, kv_len, a.q_heads, a.kv_heads, splits, scale);
  decode_combine<DV>
      <<<batch * a.q_heads, 128, 0, stream>>>(part_o, part_ml, static_cast<__nv_bfloat16*>(out), splits);
}

}  // namespace

void DecodeAttention::enqueue(cudaStream_t stream) const {
  const bool latent = design_.qk_dim == 576;
  auto* launch =
      latent ? (fp8_ ? launch_decode<__nv_fp8_e4m3, 576, 512> : launch_decode<__nv_bfloat16, 576, 512>)
             : (fp8_ ? launch_decode<__nv_fp8_e4m3, 128, 128> : launch_decode<__nv_bfloat16, 128, 128>);
  launch(stream, design_, batch_, kv_len_, splits_, q_, k_, v_, out_, part_o_, part_ml_);
}

PrefillAttention::PrefillAttention(cublasHandle_t handle, const AttentionDesign& a, int len)
    : handle_(handle), design_(a), len_(len) {
  const int d = a.qk_dim, group = a.q_heads / a.kv_heads;
  RLSIM_CUDA(cudaMalloc(&q_, static_cast<size_t>(a.q_heads) * len * d * 2));
  RLSIM_CUDA(cudaMalloc(&k_, static_cast<size_t>(a.kv_heads) * len * d * 2));
  RLSIM_CUDA(cudaMalloc(&v_, static_cast<size_t>(a.kv_heads) * len * a.v_dim * 2));
  RLSIM_CUDA(cudaMalloc(&s_, static_cast<size_t>(a.q_heads) * len * len * 2));
  RLSIM_CUDA(cudaMalloc(&o_, static_cast<size_t>(a.q_heads) * len * a.v_dim * 2));
  fill_random(q_, static_cast<size_t>(a.q_heads) * len * d, false);
  fill_random(k_, static_cast<size_t>(a.kv_heads) * len * d, false);
  fill_random(v_, static_cast<size_t>(a.kv_heads) * len * a.v_dim, false);
  // Pointer arrays map each query head to its KV head (GQA/MQA share K and V across a group).
  std::vector<void*> host(5 * static_cast<size_t>(a.q_heads));
  for (int h = 0; h < a.q_heads; ++h) {
    host[h] = static_cast<char*>(q_) + static_cast<size_t>(h) * len * d * 2;
    host[a.q_heads + h] = static_cast<char*>(k_) + static_cast<size_t>(h / group) * len * d * 2;
    host[2 * a.q_heads + h] = static_cast<char*>(v_) + static_cast<size_t>(h / group) * len * a.v_dim * 2;
    host[3 * a.q_heads + h] = static_cast<char*>(s_) + static_cast<size_t>(h) * len * len * 2;
    host[4 * a.q_heads + h] = static_cast<char*>(o_) + static_cast<size_t>(h) * len * a.v_dim * 2;
  }
  RLSIM_CUDA(cudaMalloc(&pointers_, host.size() * sizeof(void*)));
  RLSIM_CUDA(cudaMemcpy(pointers_, host.data(), host.size() * sizeof(void*), cudaMemcpyHostToDevice));
}

PrefillAttention::~PrefillAttention() {
  for (void* p : {q_, k_, v_, s_, o_, static_cast<void*>(pointers_)}) cudaFree(p);
}

void PrefillAttention::enqueue(cudaStream_t stream) const {
  const AttentionDesign& a = design_;
  const int d = a.qk_dim, len = len_;
  void** dev = pointers_;
  const float one = 1.0f, zero = 0.0f, scale = 1.0f / sqrtf(static_cast<float>(d));
  cublasSetStream(handle_, stream);
  // S = Q·Kᵀ per head with row-major buffers, seen by cuBLAS as column-major transposes.
  if (cublasGemmBatchedEx(handle_, CUBLAS_OP_T, CUBLAS_OP_N, len, len, d, &one, dev + a.q_heads, CUDA_R_16BF,
                          d, dev, CUDA_R_16BF, d, &zero, dev + 3 * a.q_heads, CUDA_R_16BF, len, a.q_heads,
                          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "rlsim-kernels: prefill QK^T failed\n");
    std::exit(1);
  }
  causal_softmax<<<a.q_heads * len, 256, 0, stream>>>(static_cast<__nv_bfloat16*>(s_), len, scale);
  if (cublasGemmBatchedEx(handle_, CUBLAS_OP_N, CUBLAS_OP_N, a.v_dim, len, len, &one, dev + 2 * a.q_heads,
                          CUDA_R_16BF, a.v_dim, dev + 3 * a.q_heads, CUDA_R_16BF, len, &zero,
                          dev + 4 * a.q_heads, CUDA_R_16BF, a.v_dim, a.q_heads, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "rlsim-kernels: prefill PV failed\n");
    std::exit(1);
  }
  cublasSetStream(handle_, 0);
}

namespace {

void add_shape(Point& p, const AttentionDesign& a, int batch, int q_len, int kv_len) {
  p.fields = {{"batch", std::to_string(batch)},         {"q_len", std::to_string(q_len)},
              {"kv_len", std::to_string(kv_len)},       {"q_heads", std::to_string(a.q_heads)},
              {"kv_heads", std::to_string(a.kv_heads)}, {"qk_head_dim", std::to_string(a.qk_dim)},
              {"v_head_dim", std::to_string(a.v_dim)}};
}

}  // namespace

void measure_attention(const Options& o, const DeviceInfo& /*d*/, Timer& timer, double read_bw,
                       std::vector<Point>& points) {
  const std::vector<int> batches = o.quick ? std::vector<int>{8, 64} : std::vector<int>{1, 8, 32, 128};
  const std::vector<int> contexts = o.quick ? std::vector<int>{4096} : std::vector<int>{1024, 4096, 16384};
  for (const AttentionDesign& a : attention_designs()) {
    for (bool fp8 : {false, true}) {
      for (int batch : batches) {
        for (int ctx : contexts) {
          const DecodeAttention attention(a, batch, ctx, fp8);
          const double t = timer.median_seconds([&] { attention.enqueue(0); });
          Point p;
          p.op = "attention_decode";
          p.name = std::string(a.name) + (fp8 ? ".fp8kv" : ".bf16kv");
          p.dtype = "bf16";
          add_shape(p, a, batch, 1, ctx);
          p.fields.push_back({"kv_dtype", fp8 ? "\"fp8\"" : "\"bf16\""});
          p.seconds = t;
          p.flops = 2.0 * batch * a.q_heads * static_cast<double>(ctx) * (a.qk_dim + a.v_dim);
          p.bytes = static_cast<double>(batch) * ctx * a.kv_heads * (a.qk_dim + a.v_dim) * (fp8 ? 1.0 : 2.0) +
                    static_cast<double>(batch) * a.q_heads * (a.qk_dim + a.v_dim) * 2.0;
          char note[96];
          std::snprintf(note, sizeof note, "fraction of measured HBM read bandwidth: %.2f",
                        p.bytes / t / read_bw);
          p.note = note;
          points.push_back(p);
        }
      }
    }
  }
  std::fprintf(stderr, "  decode attention done (%zu points so far)\n", points.size());
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return;
  const std::vector<int> lengths =
      o.quick ? std::vector<int>{1024, 4096} : std::vector<int>{512, 1024, 2048, 4096, 8192};
  for (const AttentionDesign& a : attention_designs()) {
    if (a.qk_dim != a.v_dim) continue;  // MLA prefill runs un-absorbed (like MHA); skip the latent shape
    for (int len : lengths) {
      Point p;
      p.op = "attention_prefill";
      p.name = std::string(a.name) + ".prefill.unfused";
      add_shape(p, a, 1, len, len);
      const PrefillAttention attention(handle, a, len);
      p.seconds = timer.median_seconds([&] { attention.enqueue(0); });
      p.flops = 2.0 * a.q_heads * static_cast<double>(len) * ((len + 1.0) / 2.0) * (a.qk_dim + a.v_dim);
      p.bytes = 2.0 * (static_cast<double>(len) * a.q_heads * (a.qk_dim + a.v_dim) +
                       static_cast<double>(len) * a.kv_heads * (a.qk_dim + a.v_dim));
      p.note = "unfused: cuBLAS QK^T, causal softmax, PV";
      points.push_back(p);
    }
  }
  cublasDestroy(handle);
  std::fprintf(stderr, "  prefill attention done (%zu points)\n", points.size());
}

}  // namespace rlsim_kernels
