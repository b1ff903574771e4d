// Fitting an inference engine's time beyond kernels (models/timing/engine_overhead.h) to measured
// times of iterations, or of whole static batches (a prefill and its decodes, summed): each
// iteration's kernels and TP all-reduces are predicted by the caller (from the cost model and
// collective fit the profile will hold); the five terms (CPU fixed, per sequence,
// per token; launch and graph gaps per layer) are fitted by Nelder-Mead on mean relative error,
// non-negative. Held-out error as for kernels: every fifth sample is scored by a fit that did not
// see it; the stored terms are then refitted on all samples. Only the terms the samples constrain
// are returned (no eager sample: no launch gap; no graph sample: no graph gap).
#pragma once

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

/// What one measurement timed: one iteration, or a batch's iterations one after another.
struct ServingSample {
  std::vector<ServingIteration> iterations;
  double measured_s = 0.0;
};

/// The time `engine` predicts for `sample`: its iterations' totals, summed.
double predicted_seconds(const EngineOverhead& engine, const ServingSample& sample);

struct EngineFit {
  EngineOverheadOverride terms;
  FitError error;
  double preset_held_out_mape = 0.0;  ///< the preset's own terms on the held-out samples
};

/// Fits the terms of `preset` (its graph and overlap settings kept) to `samples`.
EngineFit fit_engine_terms(const std::vector<ServingSample>& samples, const EngineOverhead& preset);

}  // namespace rlsim
