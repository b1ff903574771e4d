// Engine gaps: what a decoder layer costs beyond its kernels, from the kernel suite's overhead
// records — the layer's forward timed as a whole minus its kernels each timed alone, at decode
// shapes, with eager launches (launch_gap_per_layer_s) and as a CUDA-graph replay
// (graph_gap_per_layer_s). These are the two measured keys of a profile's `engine:` block.
#pragma once

#include <optional>

#include "calibrate/measurement.h"

namespace rlsim {

struct EngineGaps {
  double launch_gap_per_layer_s = 0.0;          ///< median decode-layer gap, eager launches, >= 0
  double graph_gap_per_layer_s = 0.0;           ///< median decode-layer gap, CUDA-graph replay, >= 0
  double prefill_launch_gap_per_layer_s = 0.0;  ///< the same at prefill shapes (reported, not used)
  double kernel_launch_s = 0.0;                 ///< median per-launch time of empty kernels, eager (reported)
  int decode_layers = 0;                        ///< decode-shape records the gaps come from (per launch mode)
};

/// The gaps, or nullopt when the measurements hold no decode-shape decoder_layer record of both
/// launch modes (vidur files, older suite output).
std::optional<EngineGaps> fit_engine_gaps(const MeasurementSet& measurements);

}  // namespace rlsim
