// Engine terms by Nelder-Mead on relative error, scored on every fifth sample held out.
#include "calibrate/engine_fitter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "calibrate/nelder_mead.h"

namespace rlsim {
namespace {

// The five terms, in the order the identifiability check accepts them, with the units the simplex
// moves in (one step is a plausible change of each term, s).
constexpr int kTerms = 5;
constexpr double kScale[kTerms] = {1e-4, 1e-5, 1e-6, 1e-5, 1e-6};
constexpr const char* kTermNames[kTerms] = {"cpu_fixed_s", "cpu_per_sequence_s", "cpu_per_token_s",
                                            "launch_gap_per_layer_s", "graph_gap_per_layer_s"};

double& term(EngineOverhead& e, int i) {
  double* terms[kTerms] = {&e.cpu_fixed_s, &e.cpu_per_sequence_s, &e.cpu_per_token_s,
                           &e.launch_gap_per_layer_s, &e.graph_gap_per_layer_s};
  return *terms[i];
}

/// `preset` with the `free` terms set from the simplex's coordinates `x` (the others as they are).
EngineOverhead with_terms(EngineOverhead e, const std::vector<int>& free, const std::vector<double>& x) {
  for (size_t k = 0; k < free.size(); ++k) term(e, free[k]) = std::abs(x[k]) * kScale[free[k]];
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

EngineOverhead fit(const std::vector<const ServingSample*>& samples, const EngineOverhead& preset,
                   const std::vector<int>& free) {
  EngineOverhead start_terms = preset;
  std::vector<double> start;
  for (int i : free) start.push_back(term(start_terms, i) / kScale[i]);
  const auto result = minimize_nelder_mead(
      [&](const std::vector<double>& x) { return score(with_terms(preset, free, x), samples).mape; }, start);
  return with_terms(preset, free, result.x);
}

/// How much each term moves each sample's time, relative to the sample (a linear view: the eager
/// launch gap counts where no kernel outlasts it, as at small batches).
std::vector<std::array<double, kTerms>> sensitivities(const std::vector<ServingSample>& samples,
                                                      const EngineOverhead& preset) {
  std::vector<std::array<double, kTerms>> rows;
  for (const ServingSample& s : samples) {
    std::array<double, kTerms> row{};
    for (const ServingIteration& i : s.iterations) {
      const bool graph = iteration_terms(preset, i.shape, i.kernels_s, i.allreduce_s).cuda_graph;
      const double layers = i.shape.layers;
      row[0] += i.count;
      row[1] += i.count * static_cast<double>(i.shape.sequences);
      row[2] += i.count * static_cast<double>(i.shape.tokens);
      (graph ? row[4] : row[3]) += i.count * layers;
    }
    for (double& v : row) v /= s.measured_s;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

std::vector<std::string> unidentified_terms(const std::vector<ServingSample>& samples,
                                            const EngineOverhead& preset, std::vector<int>* free) {
  // Gram-Schmidt over the terms' columns: a column the measurements never vary, or one the terms
  // before it already span (batch-1 rows: sequences per iteration is the iteration count), leaves
  // its term undetermined by the data.
  const auto rows = sensitivities(samples, preset);
  std::vector<std::vector<double>> basis;
  std::vector<std::string> why;
  for (int j = 0; j < kTerms; ++j) {
    std::vector<double> column;
    for (const auto& row : rows) column.push_back(row[static_cast<size_t>(j)]);
    double norm = 0.0;
    for (double v : column) norm += v * v;
    norm = std::sqrt(norm);
    if (norm == 0.0) {
      why.push_back(std::string(kTermNames[j]) + ": no measurement exercises it");
      continue;
    }
    std::vector<double> residual = column;
    for (const auto& b : basis) {
      double dot = 0.0;
      for (size_t k = 0; k < residual.size(); ++k) dot += residual[k] * b[k];
      for (size_t k = 0; k < residual.size(); ++k) residual[k] -= dot * b[k];
    }
    double left = 0.0;
    for (double v : residual) left += v * v;
    left = std::sqrt(left);
    if (left < 1e-3 * norm) {
      std::string spanned;
      for (int i : *free) spanned += (spanned.empty() ? "" : ", ") + std::string(kTermNames[i]);
      why.push_back(std::string(kTermNames[j]) +
                    ": not identified (the measurements move it only as they move " + spanned + ")");
      continue;
    }
    for (double& v : residual) v /= left;
    basis.push_back(std::move(residual));
    free->push_back(j);
  }
  return why;
}

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
  std::vector<int> free;
  out.kept_at_preset = unidentified_terms(samples, preset, &free);
  if (!held.empty() && !train.empty()) {
    const Scored s = score(fit(train, preset, free), held);
    out.error.held_out_points = s.points;
    out.error.held_out_mape = s.mape;
    out.error.held_out_max_error = s.max_error;
    out.preset_held_out_mape = score(preset, held).mape;
  }
  EngineOverhead fitted = fit(all, preset, free);
  out.error.fit_points = static_cast<int>(all.size());
  // Only the identified terms are written: the others stay the preset's where the profile is used.
  std::optional<double>* written[kTerms] = {&out.terms.cpu_fixed_s, &out.terms.cpu_per_sequence_s,
                                            &out.terms.cpu_per_token_s, &out.terms.launch_gap_per_layer_s,
                                            &out.terms.graph_gap_per_layer_s};
  for (int i : free) *written[i] = term(fitted, i);
  return out;
}

}  // namespace rlsim
