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

/// One timing of an inference engine's own all-reduce (what its TP all-reduce dispatches at that
/// size: vLLM's custom all-reduce, SGLang's, TensorRT-LLM's) of `bytes` per GPU.
struct EngineAllReduceMeasurement {
  std::string engine;      ///< rlsim engine preset it ran under (vllm-v1, sglang, trtllm)
  int gpus = 0;            ///< ranks taking part, all in one node
  bool cuda_graph = true;  ///< replayed in a captured CUDA graph (else launched eagerly)
  double bytes = 0.0;      ///< message size
  double seconds = 0.0;    ///< measured time per all-reduce
  std::string source;      ///< file:line
};

/// One timing of what an engine spends outside kernels (the kernel suite's overhead records):
/// back-to-back empty kernels (`launch_latency`), or a decoder layer's forward run as a whole
/// (`decoder_layer`) beside the sum of its kernels each timed alone.
struct EngineOverheadMeasurement {
  std::string kind;                 ///< launch_latency or decoder_layer
  std::string name;                 ///< e.g. "llama-3-8b.decode.b64"
  std::string phase;                ///< decode or prefill (decoder_layer); empty otherwise
  std::string launch;               ///< stream (eager launches) or graph (CUDA-graph replay)
  double seconds = 0.0;             ///< per launch (launch_latency) or per layer (decoder_layer)
  double kernel_sum_seconds = 0.0;  ///< decoder_layer: the layer's kernels, each timed alone, summed
  std::string source;               ///< file:line
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
  std::vector<EngineAllReduceMeasurement> engine_allreduces;
  std::vector<EngineOverheadMeasurement> engine_overheads;

  /// Points of one op class.
  std::vector<Measurement> of_class(OpClass c) const;
  /// Appends `other` (another file of the same device); device facts are kept from the first
  /// input that has them.
  void merge(MeasurementSet other);
};

}  // namespace rlsim
