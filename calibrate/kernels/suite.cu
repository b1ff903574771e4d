// Timing harness of the kernel suite: CUDA events around each repetition, the L2 flushed before
// every repetition (a cold-cache measurement, as in a model's forward pass where weights stream
// from HBM), warm-ups first, median of the repetitions.
#include <algorithm>

#include "suite.h"

namespace rlsim_kernels {

void check_cuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "rlsim-kernels: %s failed: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

Timer::Timer(double l2_bytes, bool quick) {
  flush_bytes_ = static_cast<size_t>(std::max(2.0 * l2_bytes, 64e6));
  RLSIM_CUDA(cudaMalloc(&flush_buffer_, flush_bytes_));
  RLSIM_CUDA(cudaEventCreate(&start_));
  RLSIM_CUDA(cudaEventCreate(&stop_));
  if (quick) {
    warmups_ = 2;
    reps_ = 5;
  }
}

Timer::~Timer() {
  cudaFree(flush_buffer_);
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void Timer::flush_l2() { RLSIM_CUDA(cudaMemsetAsync(flush_buffer_, 0, flush_bytes_, 0)); }

double Timer::median_seconds(const std::function<void()>& launch) {
  for (int i = 0; i < warmups_; ++i) launch();
  RLSIM_CUDA(cudaDeviceSynchronize());
  std::vector<double> times;
  for (int i = 0; i < reps_; ++i) {
    flush_l2();
    RLSIM_CUDA(cudaEventRecord(start_, 0));
    launch();
    RLSIM_CUDA(cudaEventRecord(stop_, 0));
    RLSIM_CUDA(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    RLSIM_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    times.push_back(static_cast<double>(ms) * 1e-3);
  }
  RLSIM_CUDA(cudaGetLastError());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace rlsim_kernels
