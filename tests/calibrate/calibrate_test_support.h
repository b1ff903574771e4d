// Shared fixtures of the calibration tests: the H100 and A100 datasheet rows (as in
// scenarios/catalog/hardware.yaml), the vidur subset in tests/data/vidur (H100) and the committed
// vidur files in data/measured (A100).
#pragma once

#include <string>

#include "calibrate/vidur_importer.h"
#include "models/hardware.h"

namespace rlsim::test {

inline HardwareSpec h100() {
  HardwareSpec h;
  h.name = "H100";
  h.peak_flops = {{Precision::bf16, 989e12}, {Precision::fp16, 989e12}, {Precision::fp8, 1979e12}};
  h.mem_bw_bytes_per_s = 3.35e12;
  return h;
}

inline HardwareSpec a100() {
  HardwareSpec h;
  h.name = "A100";
  h.peak_flops = {{Precision::bf16, 312e12}, {Precision::fp16, 312e12}};
  h.mem_bw_bytes_per_s = 2.039e12;
  return h;
}

inline std::string vidur_file(const std::string& name) {
  return std::string(RLSIM_TEST_SOURCE_DIR) + "/tests/data/vidur/" + name;
}

/// H100 GEMM timings of one Llama-2 size ("7b" or "70b").
inline MeasurementSet llama2_h100(const std::string& size) {
  return import_vidur_csv(vidur_file("h100_mlp_Llama-2-" + size + "-hf.csv"));
}

/// A100 GEMM timings of one Llama-2 size ("7b" or "70b"), the files the A100 profile was fitted on.
inline MeasurementSet llama2_a100(const std::string& size) {
  return import_vidur_csv(std::string(RLSIM_TEST_SOURCE_DIR) + "/data/measured/vidur-a100/mlp_Llama-2-" +
                          size + "-hf.csv");
}

}  // namespace rlsim::test
