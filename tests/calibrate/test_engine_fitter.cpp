// The serving engine fit's held-out split (a region the fit did not see, named) and its terms'
// plausible bounds (a fit that lands on one says so).
#include <catch2/catch.hpp>

#include "calibrate/engine_fitter.h"

using namespace rlsim;

namespace {

/// One decode iteration of `batch` sequences of a 32-layer model at `tp`, its kernels 10 ms.
ServingSample decode(int64_t batch, int tp, int64_t context, double measured_s) {
  ServingSample s;
  IterationShape shape;
  shape.layers = 32;
  shape.sequences = batch;
  shape.tokens = batch;
  s.iterations.push_back(ServingIteration{shape, 10e-3, 0.0, 1.0});
  s.measured_s = measured_s;
  s.batch = batch;
  s.tp = tp;
  s.context_tokens = context;
  return s;
}

}  // namespace

TEST_CASE("the held-out samples are the largest batches, else TP degrees, else contexts") {
  std::vector<ServingSample> samples;
  for (int64_t batch : {1, 1, 1, 1, 8, 8, 8, 8, 64, 64}) samples.push_back(decode(batch, 1, 512, 0.011));
  HeldOutSplit split = held_out_split(samples);
  CHECK(split.held == std::vector<size_t>{8, 9});
  CHECK(split.region == "batch 64 (the largest batches, fitted on the smaller)");

  samples.clear();
  for (int tp : {1, 2, 4, 8}) {
    for (int64_t context : {128, 1024, 8192}) samples.push_back(decode(1, tp, context, 0.011));
  }
  split = held_out_split(samples);
  CHECK(split.held == std::vector<size_t>{9, 10, 11});
  CHECK(split.region == "TP 8 (the largest TPs, fitted on the smaller)");

  samples.clear();
  for (int64_t context : {128, 1024, 2048, 4096, 8192, 16384})
    samples.push_back(decode(1, 1, context, 0.011));
  split = held_out_split(samples);
  CHECK(split.held == std::vector<size_t>{4, 5});  // two values reach a fifth of six
  CHECK(split.region == "context 8192, 16384 (the largest contexts, fitted on the smaller)");

  samples.assign(10, decode(1, 1, 128, 0.011));
  split = held_out_split(samples);
  CHECK(split.held == std::vector<size_t>{4, 9});
  CHECK(split.region == "every fifth measurement (batch, TP and context do not vary)");
}

TEST_CASE("a term the measurements push past its plausible bound stops there and the fit says so") {
  // Iterations measured at 1 s around 10 ms of kernels: no CPU overhead explains 990 ms.
  std::vector<ServingSample> samples;
  for (int64_t batch : {1, 2, 4, 8, 16}) samples.push_back(decode(batch, 1, 512, 1.0));
  EngineOverhead preset;
  preset.cpu_fixed_s = 1e-4;
  preset.cpu_per_sequence_s = 1e-5;
  preset.graph_max_tokens = 512;
  const EngineFit fit = fit_engine_terms(samples, preset);
  REQUIRE(fit.terms.cpu_fixed_s);
  CHECK(*fit.terms.cpu_fixed_s <= 20e-3);
  REQUIRE_FALSE(fit.at_bound.empty());
  CHECK_THAT(fit.at_bound.front(), Catch::StartsWith("cpu_fixed_s: at its bound 20 ms"));
}
