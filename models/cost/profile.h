// HardwareProfile: what `rlsim calibrate` learned about one card from measurements, and the
// prediction functions that turn it back into op and collective times. Efficiencies are fractions
// of the card's datasheet figures (HardwareSpec), so one profile also answers for precisions it did
// not measure (by scaling with the datasheet peak). Pure data and arithmetic: std only; reading and
// writing profiles lives in sim/scenario/profile_loader and calibrate/profile_writer.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/cost/measured_shape.h"
#include "models/hardware.h"
#include "models/input_error.h"
#include "models/named_enum.h"
#include "models/ops/op.h"
#include "models/timing/engine_overhead.h"

namespace rlsim {

/// A shape-aware achieved-throughput model of one op class (the "tiled roofline"):
///   t = launch_overhead + combine(compute, memory)          (see overlap_exponent)
///   memory  = HBM bytes / (memory_efficiency · datasheet bandwidth)   (GEMM bytes: see l2_band)
///   compute = the fastest tiling among fixed candidates (tile sizes × split-K factors) of
///             waves · tile_time, waves from tiles · split over sm_count (see wave_quantization),
///             each tile of tm×tn spans ceil-padded rows and columns (tile quantisation), and a tile
///             over k steps takes 2·tm·tn·(k + tile_k_overhead) / (per-SM peak · tile efficiency),
///             tile efficiency = compute_efficiency / (1 + tile_edge_cost · (1/tm + 1/tn)).
/// Attention and memory-bound ops use the same parameters over their own work units (see
/// kernel_seconds). Unused fields stay at their defaults.
struct KernelFit {
  double launch_overhead_s = 0.0;   ///< fixed time per op (launch, prologue, framework timing), s
  double compute_efficiency = 1.0;  ///< fraction of datasheet per-SM peak reached by very large tiles
  double memory_efficiency = 1.0;   ///< fraction of datasheet HBM bandwidth reached when streaming
  double tile_k_overhead = 0.0;     ///< per-tile fixed cost, in k elements (prologue, epilogue)
  double tile_edge_cost = 0.0;      ///< operand-load cost of small tiles, in elements (see above)
  /// How compute and memory phases combine: (c^p + m^p)^(1/p); large p is max(c, m) (full
  /// overlap), p = 1 is c + m (none). Ops in the transition between regimes sit in between.
  double overlap_exponent = 64.0;
  /// Wave quantisation strength: waves = (1 − q)·tiles/SMs + q·ceil(tiles/SMs). q = 1 is a
  /// data-parallel kernel (a partial last wave costs a full one); q → 0 is stream-K balancing.
  double wave_quantization = 1.0;
  /// L2 reuse of GEMM operands: an operand larger than the card's L2 is re-read from HBM once per
  /// band of this many output rows (weights, for A·W) or columns (activations). 0 = read once.
  double l2_band = 0.0;
};

/// How wrong a fit is. Relative errors are |predicted − measured| / measured.
/// Held-out scores come from fits that did not see those points (leave one model out when the
/// measurements span several models, else every fifth point); the stored parameters are then
/// refitted on all points.
struct FitError {
  int fit_points = 0;               ///< points the stored parameters were fitted on
  int held_out_points = 0;          ///< points scored by a fit that had not seen them
  double held_out_mape = 0.0;       ///< mean relative error on held-out points (0.05 = 5%)
  double held_out_max_error = 0.0;  ///< largest relative error on held-out points
  /// The same held-out points scored by a plain roofline with one fitted efficiency and one fixed
  /// overhead (the reference the shape-aware model must beat); 0 when not computed.
  double baseline_held_out_mape = 0.0;
  /// The same held-out points scored by the uncalibrated datasheet roofline (peak, no overhead).
  double datasheet_held_out_mape = 0.0;
  /// The measurements' own jitter: MAPE of each GEMM against the straight line through its
  /// neighbours in token count (calibrate/fit_error.h). A smooth model of shape cannot do better
  /// than this on such data; 0 when not scored (other op classes, too few token counts).
  double jitter_floor_mape = 0.0;
  /// In-shape held-out error of the measured tables (MeasuredShape): every other token count of
  /// each measured shape withheld and priced by interpolation between the rest. `held_out_*` above
  /// is the cross-shape error (shapes of other models withheld, priced by the fitted model).
  int in_shape_held_out_points = 0;
  double in_shape_held_out_mape = 0.0;
  double in_shape_held_out_max_error = 0.0;
};

/// A fitted model of one op class at one compute precision.
struct OpClassProfile {
  OpClass op_class = OpClass::gemm;
  Precision precision = Precision::bf16;
  KernelFit fit;
  FitError error;
};

/// The collectives calibration measures (names as in vidur's CSVs and in profiles).
#define RLSIM_COLLECTIVES(X) X(all_reduce) X(send_recv)
RLSIM_NAMED_ENUM(Collective, RLSIM_COLLECTIVES)

/// Alpha-beta model of one collective at one group size: t = alpha + bytes / bandwidth.
/// `bandwidth_bytes_per_s` is algorithm bandwidth (message bytes over time), as measured.
struct CollectiveFit {
  Collective collective = Collective::all_reduce;
  int gpus = 0;           ///< group size (2 for send/recv)
  int gpus_per_node = 0;  ///< GPUs of the group sharing one node (< gpus: crosses nodes)
  double alpha_s = 0.0;   ///< latency term, s
  double bandwidth_bytes_per_s = 0.0;
  double min_bytes = 0.0;  ///< smallest message measured
  double max_bytes = 0.0;  ///< largest message measured
  FitError error;
};

/// An inference engine's own TP all-reduce at one group size in one node (vLLM's custom
/// all-reduce, SGLang's, TensorRT-LLM's one-/two-shot: what the engine dispatches at each size),
/// measured replaying a CUDA graph or launched eagerly. Priced from the table, not a fitted model:
/// the engines switch kernels with message size, which no alpha-beta line follows.
struct EngineAllReduce {
  std::string engine;           ///< the engine preset it was measured under (scenarios/catalog/engines.yaml)
  SourceLocation engine_where;  ///< where a profile file names `engine` (empty when fitted in memory)
  int gpus = 0;                 ///< group size
  bool cuda_graph = true;       ///< measured inside a CUDA graph (else eager launches)
  std::vector<double> bytes;    ///< message sizes, strictly ascending
  std::vector<double> seconds;  ///< time per all-reduce at each size, > 0
  FitError error;               ///< each inner size withheld and priced from its neighbours

  /// Time for a `message_bytes` message: linear in bytes between the two measured sizes around it;
  /// the smallest size's time below the table; above it, the largest size's time scaled by size
  /// (bandwidth-bound).
  double seconds_at(double message_bytes) const;
};

struct ProfileSource {
  std::string file;  ///< as given on the command line
  int points = 0;    ///< measurements read from it
};

/// What a whole RL run measured against what rlsim models for it (`rlsim calibrate --format verl`):
/// per phase, rlsim's modelled time over the run's measured time on this card. The simulator
/// divides that phase's time by it, so a calibrated scenario reproduces the run; the terms hold
/// whatever rlsim does not model of that framework (kernel and framework gaps, padding, engine
/// settings) and are only as general as the run they came from.
struct RlRunTerms {
  std::string card;       ///< the profile's card: the terms apply to pools of this card only
  std::string framework;  ///< the framework whose logs they were fitted from, e.g. "verl"
  /// Rollout: every inference iteration (prefill and decode) of instances on this card.
  double generation_efficiency = 1.0;
  /// The trainer's forward-only passes (old_log_prob, ref, PPO's values).
  double forward_efficiency = 1.0;
  /// The trainer's update: forward and backward passes and the optimizer step (not the DP
  /// exchange, which the network model prices).
  double update_efficiency = 1.0;
  FitError error;  ///< of the step time, on the steps the fit did not see
};

/// The shapes a profile's engine terms were fitted on (`engine: range:`): the batches, TP degrees and
/// sequence lengths (context, prompt included) of the measurements. A prediction outside them
/// extrapolates the terms; rlsim says so where it uses them (sim/scenario/profile_range_check.h).
struct EngineFitRange {
  int64_t batch_min = 0, batch_max = 0;
  int tp_min = 0, tp_max = 0;
  int64_t context_min = 0, context_max = 0;
  bool empty() const { return batch_max == 0; }
  /// "batch 1 to 8, TP 1 to 8, contexts 148 to 148 tokens".
  std::string text() const;
};

struct HardwareProfile {
  std::string card;       ///< catalog key the efficiencies are relative to, e.g. "H100"
  std::string device;     ///< device name as measured, e.g. "NVIDIA H100 80GB HBM3"
  std::string date;       ///< date of the measurements (ISO 8601), or "unknown"
  int sm_count = 0;       ///< streaming multiprocessors (for wave quantisation)
  double l2_bytes = 0.0;  ///< last-level cache size (for GEMM operand re-reads)
  std::vector<ProfileSource> sources;
  std::vector<OpClassProfile> ops;  ///< at most one per (op class, precision)
  std::vector<CollectiveFit> collectives;
  /// Inference engines' own TP all-reduces measured on this card (`engine_allreduces:`), at most
  /// one per (engine, group size, launch mode).
  std::vector<EngineAllReduce> engine_allreduces;
  /// The inference engine's time beyond kernels measured on this card (`engine:`, optional):
  /// overrides the scenario's engine preset term by term (models/timing/engine_overhead.h).
  EngineOverheadOverride engine;
  FitError engine_error;  ///< held-out error of the serving fit that produced `engine`
  /// Which measurements that error held out ("batch 64 (the largest batches, ...)"); written as the
  /// profile's comment, not read back.
  std::string engine_held_out_region = "every fifth measurement";
  EngineFitRange engine_range;  ///< what `engine` was fitted on (empty when the profile does not say)
  /// A whole RL run's terms on this card (`rl_run:`, optional; RlRunTerms).
  std::optional<RlRunTerms> rl_run;
  /// Measured times of measured shapes by token count, at most one per shape; they price those
  /// shapes inside their measured token range (see profile_price).
  std::vector<MeasuredShape> measured_shapes;

  /// The table of `op`'s shape, or nullptr when that shape was not measured.
  const MeasuredShape* find_measured(const Op& op) const;
  /// The fit for `op`: same class and precision, else same class at bf16, else same class at any
  /// precision (efficiencies are relative to the datasheet peak of the op's own precision).
  /// Grouped GEMMs fall back to the GEMM fit. nullptr when the class was not calibrated.
  const OpClassProfile* find(OpClass op_class, Precision precision) const;
  /// The alpha-beta fit for a collective: same group size and node span when measured, else the
  /// nearest group size of that collective. nullptr when the collective was not calibrated.
  const CollectiveFit* find_collective(Collective collective, int gpus, int gpus_per_node) const;
  /// `engine_name`'s own all-reduce at exactly `gpus` GPUs, measured in CUDA graphs or eagerly, or
  /// nullptr when this profile has no such table.
  const EngineAllReduce* find_engine_allreduce(const std::string& engine_name, int gpus,
                                               bool cuda_graph) const;
};

/// Time of `op` on `card` under `fit`; `sm_count` drives wave quantisation. Pure and > 0.
double kernel_seconds(const KernelFit& fit, const Op& op, const HardwareSpec& card, int sm_count,
                      double l2_bytes);
/// Where a profile's time for an op comes from: a measured token count of a measured shape, an
/// interpolation between two measured token counts of it, or the fitted model (a shape or token count
/// that was not measured).
#define RLSIM_PRICE_SOURCES(X) X(measured) X(interpolated) X(fitted)
RLSIM_NAMED_ENUM(PriceSource, RLSIM_PRICE_SOURCES)

struct ProfilePrice {
  double seconds = 0.0;
  PriceSource source = PriceSource::fitted;
};

/// Time of `op` under the profile and where it comes from: its measured table when the shape was
/// measured and M lies in the measured range, else the fitted model of its class; nullopt when the
/// profile has neither.
std::optional<ProfilePrice> profile_price(const HardwareProfile& profile, const Op& op,
                                          const HardwareSpec& card);
/// Time of `op` predicted by the profile (profile_price's seconds).
std::optional<double> profile_seconds(const HardwareProfile& profile, const Op& op, const HardwareSpec& card);
/// Time of a collective of `bytes` per GPU under an alpha-beta fit measured at `fit.gpus` GPUs,
/// rescaled to `gpus` with the ring algorithm's traffic factor when the group sizes differ.
double collective_seconds(const CollectiveFit& fit, int gpus, double bytes);

/// The datasheet peak used for `precision` on `card` (falls back to bf16, then fp16).
double datasheet_peak(const HardwareSpec& card, Precision precision);

}  // namespace rlsim
