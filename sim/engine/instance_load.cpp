// Time-weighted load figures of inference instances (see instance_load.h).
#include "sim/engine/instance_load.h"

#include <algorithm>

namespace rlsim {

double load_integral(const std::vector<LoadSample>& load, double from, double to,
                     const std::function<double(const LoadSample&)>& value) {
  double area = 0.0;
  for (size_t k = 0; k < load.size(); ++k) {
    const double start = std::max(from, load[k].time_s);
    const double end = std::min(to, k + 1 < load.size() ? load[k + 1].time_s : to);
    if (end > start) area += value(load[k]) * (end - start);
  }
  return area;
}

double peak_kv_use(const std::vector<LoadSample>& load, double from, double to, double kv_capacity_tokens) {
  double peak = 0.0;
  for (size_t k = 0; k < load.size(); ++k) {
    const bool in_window = load[k].time_s <= to && (k + 1 == load.size() || load[k + 1].time_s > from);
    if (in_window) peak = std::max(peak, load[k].kv_tokens / kv_capacity_tokens);
  }
  return peak;
}

LoadFigures generating_load_figures(const std::vector<InstanceLoad>& instances, double from_s, double to_s) {
  LoadFigures f;
  int counted = 0;
  for (const InstanceLoad& instance : instances) {
    const auto generating = [](const LoadSample& s) { return s.running > 0 ? 1.0 : 0.0; };
    const double generating_s = load_integral(instance.samples, from_s, to_s, generating);
    if (generating_s <= 0.0 || instance.kv_capacity_tokens <= 0.0) continue;
    ++counted;
    const double running = load_integral(instance.samples, from_s, to_s, [](const LoadSample& s) {
      return s.running > 0 ? static_cast<double>(s.running) : 0.0;
    });
    const double kv = load_integral(instance.samples, from_s, to_s,
                                    [](const LoadSample& s) { return s.running > 0 ? s.kv_tokens : 0.0; });
    f.batch_occupancy += running / generating_s / instance.max_batch;
    f.kv_use_mean += kv / generating_s / instance.kv_capacity_tokens;
    f.kv_use_max =
        std::max(f.kv_use_max, peak_kv_use(instance.samples, from_s, to_s, instance.kv_capacity_tokens));
  }
  if (counted > 0) {
    f.batch_occupancy /= counted;
    f.kv_use_mean /= counted;
  }
  return f;
}

}  // namespace rlsim
