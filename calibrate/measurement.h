// Measurement: one timed op (or collective) on a real card, as importers produce it and the fitter
// consumes it. A MeasurementSet gathers what the input files said about one device.
#pragma once

#include <string>
#include <vector>

#include "models/cost/profile.h"
#include "models/ops/op.h"

namespace rlsim {

struct Measurement {
  Op op;                 ///< the op measured: class, shape, dtype, FLOPs and bytes
  double seconds = 0.0;  ///< median measured time
  std::string source;    ///< file:line (or file#/points/i) it came from, for provenance
  std::string group;     ///< what it belongs to ("Llama-2-7b-hf", "qwen3-8b"), for hold-out by model
};

/// One timed collective (NCCL all-reduce, send/recv) of `bytes` per GPU.
struct CollectiveMeasurement {
  Collective collective = Collective::all_reduce;
  int gpus = 0;           ///< ranks taking part
  int gpus_per_node = 0;  ///< ranks per node (< gpus: the collective crosses nodes)
  double bytes = 0.0;     ///< message size
  double seconds = 0.0;   ///< median measured time
  std::string source;
};

struct MeasurementSet {
  std::string device;                ///< e.g. "NVIDIA H100 80GB HBM3"; empty when the input does not say
  std::string date;                  ///< when measured (ISO 8601); empty when the input does not say
  int sm_count = 0;                  ///< SMs of the device; 0 when the input does not say
  double l2_bytes = 0.0;             ///< L2 cache of the device; 0 when the input does not say
  std::vector<std::string> files;    ///< inputs, in the order read
  std::vector<int> points_per_file;  ///< measurements each input contributed
  std::vector<Measurement> points;
  std::vector<CollectiveMeasurement> collectives;

  /// Points of one op class.
  std::vector<Measurement> of_class(OpClass c) const;
  /// Appends `other` (another file of the same device); device facts are kept from the first
  /// input that has them.
  void merge(MeasurementSet other);
};

}  // namespace rlsim
