// rlsim-kernels: measures the card it runs on (HBM streams, GEMMs, grouped GEMMs, decode and
// prefill attention, kernel launch latency, decoder-layer overheads) and writes one measurements
// JSON for `rlsim calibrate`. Without a CUDA device it says so and exits 3.
// Usage: rlsim-kernels [--quick] [--out FILE] [--date YYYY-MM-DD]
#include <cstring>
#include <ctime>

#include "suite.h"

namespace rlsim_kernels {
namespace {

int usage(const char* why) {
  std::fprintf(
      stderr,
      "%s%susage: rlsim-kernels [--quick] [--out measurements.json] [--date YYYY-MM-DD] [--device N]\n"
      "  --quick  a small grid of shapes (under 2 minutes on an H100/H200)\n"
      "Then: rlsim calibrate --input measurements.json --hardware <card> --out profile.yaml\n",
      why, *why ? "\n" : "");
  return *why ? 2 : 0;
}

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

DeviceInfo describe(int device) {
  cudaDeviceProp p{};
  RLSIM_CUDA(cudaGetDeviceProperties(&p, device));
  DeviceInfo d;
  d.name = p.name;
  d.sm_count = p.multiProcessorCount;
  d.compute_major = p.major;
  d.compute_minor = p.minor;
  d.l2_bytes = p.l2CacheSize;
  int clock_khz = 0, memory_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device);
  cudaDeviceGetAttribute(&d.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, device);
  d.sm_clock_mhz = clock_khz / 1000.0;
  d.memory_clock_mhz = memory_khz / 1000.0;
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  return d;
}

}  // namespace
}  // namespace rlsim_kernels

int main(int argc, char** argv) {
  using namespace rlsim_kernels;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      return i + 1 < argc ? argv[++i] : (usage((std::string(flag) + " needs a value").c_str()), nullptr);
    };
    if (arg == "--quick")
      o.quick = true;
    else if (arg == "--out") {
      if (const char* v = value("--out"))
        o.out = v;
      else
        return 2;
    } else if (arg == "--date") {
      if (const char* v = value("--date"))
        o.date = v;
      else
        return 2;
    } else if (arg == "--device") {
      if (const char* v = value("--device"))
        o.device = std::atoi(v);
      else
        return 2;
    } else if (arg == "--help" || arg == "-h")
      return usage("");
    else
      return usage(("unknown argument '" + arg + "'").c_str());
  }
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::fprintf(stderr,
                 "rlsim-kernels: no CUDA device found (%s).\n"
                 "This suite measures a real GPU: run it on a machine with one (tools/calibrate-card does\n"
                 "build, measure and fit in one go). Nothing was written.\n",
                 status != cudaSuccess ? cudaGetErrorString(status) : "device count is 0");
    return kExitNoDevice;
  }
  if (o.device < 0 || o.device >= count) return usage("--device is out of range");
  RLSIM_CUDA(cudaSetDevice(o.device));
  const DeviceInfo device = describe(o.device);
  if (o.date.empty()) o.date = today_utc();
  std::fprintf(stderr, "rlsim-kernels: measuring %s (%d SMs)%s\n", device.name.c_str(), device.sm_count,
               o.quick ? ", quick grid" : "");
  std::vector<Point> points;
  Timer timer(device.l2_bytes, o.quick);
  double read_bw = 0.0;
  measure_hbm(o, timer, points, read_bw);
  measure_gemms(o, device, timer, points);
  measure_attention(o, device, timer, read_bw, points);
  measure_overheads(o, timer, points);
  if (!write_measurements(o.out, o.date, device, points)) {
    std::fprintf(stderr, "rlsim-kernels: cannot write %s\n", o.out.c_str());
    return 1;
  }
  std::fprintf(stderr, "rlsim-kernels: %zu points written to %s\n", points.size(), o.out.c_str());
  return 0;
}
