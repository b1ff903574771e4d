// Engine terms by Nelder-Mead on relative error, scored on every fifth sample held out.
#include "calibrate/engine_fitter.h"

#include <algorithm>
#include <cmath>

#include "calibrate/nelder_mead.h"

namespace rlsim {
namespace {

// The simplex moves in these units, so one step is a plausible change of each term (s).
constexpr double kScale[5] = {1e-4, 1e-5, 1e-6, 1e-5, 1e-6};

EngineOverhead with_terms(EngineOverhead e, const std::vector<double>& x) {
  e.cpu_fixed_s = std::abs(x[0]) * kScale[0];
  e.cpu_per_sequence_s = std::abs(x[1]) * kScale[1];
  e.cpu_per_token_s = std::abs(x[2]) * kScale[2];
  e.launch_gap_per_layer_s = std::abs(x[3]) * kScale[3];
  e.graph_gap_per_layer_s = std::abs(x[4]) * kScale[4];
  return e;
}

struct Scored {
  double mape = 0.0, max_error = 0.0;
  int points = 0;
};

Scored score(const EngineOverhead& e, const std::vector<const ServingSample*>& samples) {
  Scored out;
  for (const ServingSample* s : samples) {
    const double error = std::abs(predicted_seconds(e, *s) - s->measured_s) / s->measured_s;
    out.mape += error;
    out.max_error = std::max(out.max_error, error);
    ++out.points;
  }
  if (out.points > 0) out.mape /= out.points;
  return out;
}

EngineOverhead fit(const std::vector<const ServingSample*>& samples, const EngineOverhead& preset) {
  std::vector<double> start{preset.cpu_fixed_s / kScale[0], preset.cpu_per_sequence_s / kScale[1],
                            preset.cpu_per_token_s / kScale[2], preset.launch_gap_per_layer_s / kScale[3],
                            preset.graph_gap_per_layer_s / kScale[4]};
  const auto result = minimize_nelder_mead(
      [&](const std::vector<double>& x) { return score(with_terms(preset, x), samples).mape; }, start);
  return with_terms(preset, result.x);
}

}  // namespace

double predicted_seconds(const EngineOverhead& engine, const ServingSample& sample) {
  double total = 0.0;
  for (const ServingIteration& i : sample.iterations)
    total += i.count * iteration_terms(engine, i.shape, i.kernels_s, i.allreduce_s).total_s();
  return total;
}

EngineFit fit_engine_terms(const std::vector<ServingSample>& samples, const EngineOverhead& preset) {
  std::vector<const ServingSample*> all, train, held;
  for (size_t i = 0; i < samples.size(); ++i) {
    all.push_back(&samples[i]);
    (i % 5 == 4 ? held : train).push_back(&samples[i]);
  }
  EngineFit out;
  if (!held.empty() && !train.empty()) {
    const Scored s = score(fit(train, preset), held);
    out.error.held_out_points = s.points;
    out.error.held_out_mape = s.mape;
    out.error.held_out_max_error = s.max_error;
    out.preset_held_out_mape = score(preset, held).mape;
  }
  const EngineOverhead fitted = fit(all, preset);
  out.error.fit_points = static_cast<int>(all.size());
  bool eager = false, graph = false;
  for (const ServingSample& s : samples) {
    for (const ServingIteration& i : s.iterations) {
      const bool replays = iteration_terms(preset, i.shape, i.kernels_s, i.allreduce_s).cuda_graph;
      (replays ? graph : eager) = true;
    }
  }
  out.terms.cpu_fixed_s = fitted.cpu_fixed_s;
  out.terms.cpu_per_sequence_s = fitted.cpu_per_sequence_s;
  out.terms.cpu_per_token_s = fitted.cpu_per_token_s;
  if (eager) out.terms.launch_gap_per_layer_s = fitted.launch_gap_per_layer_s;
  if (graph) out.terms.graph_gap_per_layer_s = fitted.graph_gap_per_layer_s;
  return out;
}

}  // namespace rlsim
