// HBM stream bandwidth: read (a reduction the compiler cannot drop), write, and copy, with 16-byte
// accesses and a grid-stride loop. The read figure is what decode attention is scored against.
#include "suite.h"

namespace rlsim_kernels {
namespace {

__global__ void read_kernel(const float4* __restrict__ in, size_t n, float* __restrict__ sink) {
  float acc = 0.0f;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const float4 v = in[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1234.5f) *sink = acc;  // practically never true; keeps the loads alive
}

__global__ void write_kernel(float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  }
}

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = in[i];
  }
}

Point hbm_point(const char* op, double bytes, double seconds) {
  Point p;
  p.op = op;
  p.name = op;
  p.dtype = "fp32";
  p.seconds = seconds;
  p.bytes = bytes;
  return p;
}

}  // namespace

void measure_hbm(const Options& o, Timer& timer, std::vector<Point>& points, double& read_bw_out) {
  const size_t bytes = o.quick ? (size_t{512} << 20) : (size_t{2} << 30);
  const size_t n = bytes / sizeof(float4);
  float4 *a = nullptr, *b = nullptr;
  float* sink = nullptr;
  RLSIM_CUDA(cudaMalloc(&a, bytes));
  RLSIM_CUDA(cudaMalloc(&b, bytes));
  RLSIM_CUDA(cudaMalloc(&sink, sizeof(float)));
  RLSIM_CUDA(cudaMemset(a, 0, bytes));
  int sms = 0;
  RLSIM_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = sms * 8, threads = 512;
  const double read = timer.median_seconds([&] { read_kernel<<<blocks, threads>>>(a, n, sink); });
  const double write = timer.median_seconds([&] { write_kernel<<<blocks, threads>>>(b, n); });
  const double copy = timer.median_seconds([&] { copy_kernel<<<blocks, threads>>>(a, b, n); });
  points.push_back(hbm_point("hbm_read", static_cast<double>(bytes), read));
  points.push_back(hbm_point("hbm_write", static_cast<double>(bytes), write));
  points.push_back(hbm_point("hbm_copy", 2.0 * static_cast<double>(bytes), copy));
  read_bw_out = static_cast<double>(bytes) / read;
  std::fprintf(stderr, "  HBM read %.0f GB/s, write %.0f GB/s, copy %.0f GB/s\n", bytes / read / 1e9,
               bytes / write / 1e9, 2.0 * bytes / copy / 1e9);
  RLSIM_CUDA(cudaFree(a));
  RLSIM_CUDA(cudaFree(b));
  RLSIM_CUDA(cudaFree(sink));
}

}  // namespace rlsim_kernels
