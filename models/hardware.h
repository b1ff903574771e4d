// HardwareSpec: one accelerator card as the datasheet describes it. All figures are per card and
// in SI units (FLOP/s, bytes/s, bytes, watts, USD per card-hour). Catalog rows cite their sources.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "models/precision.h"

namespace rlsim {

struct HardwareSpec {
  std::string name;                        ///< catalog key, e.g. "H100"
  std::string description;                 ///< e.g. "NVIDIA H100 SXM5 80GB"
  std::map<Precision, double> peak_flops;  ///< dense peak FLOP/s per compute precision (no sparsity)
  double mem_bw_bytes_per_s = 0.0;         ///< HBM (device memory) bandwidth
  double mem_capacity_bytes = 0.0;         ///< device memory capacity
  double intra_node_bw_bytes_per_s = 0.0;  ///< per-GPU scale-up bandwidth (NVLink, xGMI, HCCS), both
                                           ///< directions together, as datasheets state it
  double nic_bw_bytes_per_s = 0.0;         ///< scale-out NIC bandwidth per GPU
  double tdp_watts = 0.0;
  double usd_per_hour = 0.0;  ///< price per card-hour

  /// Dense peak for a precision; nullopt when the card has no such tensor-core path.
  std::optional<double> peak(Precision p) const {
    auto it = peak_flops.find(p);
    if (it == peak_flops.end()) return std::nullopt;
    return it->second;
  }
};

}  // namespace rlsim
