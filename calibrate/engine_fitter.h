// Fitting an inference engine's time beyond kernels (models/timing/engine_overhead.h) to measured
// times of iterations, or of whole static batches (a prefill and its decodes, summed): each
// iteration's kernels and TP all-reduces are predicted by the caller (from the cost model and
// collective fit the profile will hold); the five terms (CPU fixed, per sequence,
// per token; launch and graph gaps per layer) are fitted by Nelder-Mead on mean relative error,
// non-negative and within a stated plausible bound each (a fit that lands on a bound says so).
// Held-out error from a region the fit did not see: the samples of the largest batches where the
// batch varies, else of the largest TP degree, else of the longest contexts, else every fifth
// sample (the split is named); the stored terms are then refitted on all samples. Only the terms the samples
// identify are fitted and returned: a term no sample exercises (no eager iteration: no launch gap), or one
// the samples move only together with the terms before it (batch-1 rows: the per-sequence CPU time
// is then the fixed one), keeps the preset's value, and the fit says so term by term.
#pragma once

#include <string>
#include <vector>

#include "models/cost/profile.h"
#include "models/timing/engine_overhead.h"

namespace rlsim {

/// One iteration of a measured sample, run `count` times alike.
struct ServingIteration {
  IterationShape shape;
  double kernels_s = 0.0;
  double allreduce_s = 0.0;
  double count = 1.0;
};

/// What one measurement timed: one iteration, or a batch's iterations one after another; and where
/// it lies (its batch, TP degree and longest context), for the held-out split.
struct ServingSample {
  std::vector<ServingIteration> iterations;
  double measured_s = 0.0;
  int64_t batch = 1;
  int tp = 1;
  int64_t context_tokens = 0;
};

/// The time `engine` predicts for `sample`: its iterations' totals, summed.
double predicted_seconds(const EngineOverhead& engine, const ServingSample& sample);

struct EngineFit {
  EngineOverheadOverride terms;  ///< the identified terms only
  /// Each term the samples do not identify, and why; it keeps the preset's value.
  std::vector<std::string> kept_at_preset;
  /// Each fitted term that ended on its plausible bound, with the bound and its reason.
  std::vector<std::string> at_bound;
  FitError error;
  double preset_held_out_mape = 0.0;  ///< the preset's own terms on the held-out samples
  std::string held_out_region;        ///< which samples were held out: "batch 64 (the largest)"
};

/// The samples held out to score a fit: indices into `samples` and what region they are.
struct HeldOutSplit {
  std::vector<size_t> held;
  std::string region;
};
/// The largest values of the first of batch, TP and context that varies, about a fifth of the
/// samples (at least one value, and never every value); every fifth sample when none varies.
HeldOutSplit held_out_split(const std::vector<ServingSample>& samples);

/// The terms `samples` do not identify, each with why; `free` receives the indices of the others
/// (cpu_fixed, cpu_per_sequence, cpu_per_token, launch gap, graph gap), in that order.
std::vector<std::string> unidentified_terms(const std::vector<ServingSample>& samples,
                                            const EngineOverhead& preset, std::vector<int>* free);
/// Fits the terms of `preset` (its graph and overlap settings kept) to `samples`.
EngineFit fit_engine_terms(const std::vector<ServingSample>& samples, const EngineOverhead& preset);

}  // namespace rlsim
