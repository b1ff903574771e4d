// The kernel suite's shared pieces: options, measured points, device facts, the timing harness
// (CUDA events, warm-ups, L2 flushed between repetitions, median of repetitions) and the measures.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace rlsim_kernels {

/// Exit code when no CUDA device is present (rlsim's convention for "cannot run here").
constexpr int kExitNoDevice = 3;

struct Options {
  bool quick = false;  ///< small grid, few repetitions (< 2 minutes on an H100/H200)
  std::string out = "measurements.json";
  std::string date;  ///< ISO date written into the file; default: today (UTC)
  int device = 0;
};

struct DeviceInfo {
  std::string name;
  int sm_count = 0;
  int compute_major = 0, compute_minor = 0;
  double l2_bytes = 0.0;
  double sm_clock_mhz = 0.0, memory_clock_mhz = 0.0;
  int memory_bus_bits = 0;
  int driver_version = 0, runtime_version = 0;
};

/// One measured point; `fields` holds the shape as "key": value JSON members.
struct Point {
  std::string op;     ///< gemm, grouped_gemm, attention_*, hbm_*, launch_latency, decoder_layer
  std::string name;   ///< e.g. "llama-3-8b.mlp_up.tp2"
  std::string model;  ///< catalog model the shape comes from ("" for HBM)
  std::string dtype = "bf16";
  std::vector<std::pair<std::string, std::string>> fields;  ///< shape, as JSON values
  double seconds = 0.0, flops = 0.0, bytes = 0.0;
  std::string note;  ///< e.g. "fraction of measured HBM read bandwidth: 0.91"
};

/// Aborts the suite with a message naming the failing call (used only after a device was found).
void check_cuda(cudaError_t status, const char* what);
#define RLSIM_CUDA(call) ::rlsim_kernels::check_cuda((call), #call)

/// Times `launch` (which enqueues work on stream 0): `warmups` untimed runs, then `reps` timed runs,
/// each after flushing the L2 with a write of `flush_bytes`; returns the median in seconds.
class Timer {
 public:
  explicit Timer(double l2_bytes, bool quick);
  ~Timer();
  double median_seconds(const std::function<void()>& launch);

 private:
  void flush_l2();
  void* flush_buffer_ = nullptr;
  size_t flush_bytes_ = 0;
  int warmups_ = 3, reps_ = 15;
  cudaEvent_t start_{}, stop_{};
};

/// Fills `elements` values of bf16 (or fp8 e4m3) with reproducible values in [-1, 1).
void fill_random(void* p, size_t elements, bool fp8);

/// The measures; each appends its points.
void measure_hbm(const Options& o, Timer& timer, std::vector<Point>& points, double& read_bw_out);
void measure_gemms(const Options& o, const DeviceInfo& d, Timer& timer, std::vector<Point>& points);
void measure_attention(const Options& o, const DeviceInfo& d, Timer& timer, double read_bw,
                       std::vector<Point>& points);
/// Kernel launch latency and decoder layers timed whole vs as the sum of their kernels.
void measure_overheads(const Options& o, Timer& timer, std::vector<Point>& points);

/// Writes the measurements JSON (format "rlsim-measurements", version 1; see
/// calibrate/rlsim_json_importer.h for the layout).
bool write_measurements(const std::string& path, const std::string& date, const DeviceInfo& d,
                        const std::vector<Point>& points);

}  // namespace rlsim_kernels
