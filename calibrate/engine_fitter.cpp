// Engine terms by Nelder-Mead on relative error, scored on every fifth sample held out.
#include "calibrate/engine_fitter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
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
// The largest value each term may take, and why: beyond it the term is not overhead but a
// measurement the model's terms cannot explain (a stall, another workload, a wrong row).
constexpr double kBound[kTerms] = {20e-3, 1e-3, 1e-4, 1e-3, 1e-4};
constexpr const char* kBoundReason[kTerms] = {
    "an iteration's fixed CPU work past 20 ms caps decoding below 50 tokens/s a sequence, slower than any "
    "engine "
    "measured in docs/validation.md",
    "8x vLLM V0's 0.127 ms per sequence (vidur's CPU profile), the slowest per-sequence CPU time published",
    "a tenth of a millisecond per token: a 2,048-token prefill would spend 0.2 s on the CPU",
    "30 kernels a layer at PyTorch eager's slowest dispatch, about 30 us each",
    "200x the 0.5 us a CUDA-graph replay leaves between kernels (NVIDIA, Getting Started with CUDA Graphs)"};

double& term(EngineOverhead& e, int i) {
  double* terms[kTerms] = {&e.cpu_fixed_s, &e.cpu_per_sequence_s, &e.cpu_per_token_s,
                           &e.launch_gap_per_layer_s, &e.graph_gap_per_layer_s};
  return *terms[i];
}

/// `preset` with the `free` terms set from the simplex's coordinates `x` (the others as they are).
EngineOverhead with_terms(EngineOverhead e, const std::vector<int>& free, const std::vector<double>& x) {
  for (size_t k = 0; k < free.size(); ++k) {
    term(e, free[k]) = std::min(std::abs(x[k]) * kScale[free[k]], kBound[free[k]]);
  }
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

HeldOutSplit held_out_split(const std::vector<ServingSample>& samples) {
  struct Axis {
    const char* name;
    std::function<int64_t(const ServingSample&)> value;
  };
  const Axis axes[] = {{"batch", [](const ServingSample& s) { return s.batch; }},
                       {"TP", [](const ServingSample& s) { return int64_t{s.tp}; }},
                       {"context", [](const ServingSample& s) { return s.context_tokens; }}};
  for (const Axis& axis : axes) {
    std::map<int64_t, std::vector<size_t>, std::greater<>> by_value;  // largest first
    for (size_t i = 0; i < samples.size(); ++i) by_value[axis.value(samples[i])].push_back(i);
    if (by_value.size() < 2) continue;
    HeldOutSplit split;
    std::string values;
    for (const auto& [value, indices] : by_value) {
      if (!split.held.empty() && 5 * split.held.size() >= samples.size()) break;
      if (split.held.size() + indices.size() == samples.size()) break;  // the fit keeps one value
      split.held.insert(split.held.end(), indices.begin(), indices.end());
      values = std::to_string(value) + (values.empty() ? "" : ", " + values);
    }
    split.region = std::string(axis.name) + " " + values + " (the largest " + axis.name +
                   (axis.name == std::string("batch") ? "es" : "s") + ", fitted on the smaller)";
    std::sort(split.held.begin(), split.held.end());
    return split;
  }
  HeldOutSplit split;
  for (size_t i = 4; i < samples.size(); i += 5) split.held.push_back(i);
  split.region = "every fifth measurement (batch, TP and context do not vary)";
  return split;
}

EngineFit fit_engine_terms(const std::vector<ServingSample>& samples, const EngineOverhead& preset) {
  const HeldOutSplit split = held_out_split(samples);
  std::vector<const ServingSample*> all, train, held;
  std::vector<ServingSample> train_samples;
  for (size_t i = 0, next = 0; i < samples.size(); ++i) {
    all.push_back(&samples[i]);
    const bool out = next < split.held.size() && split.held[next] == i;
    if (out) {
      ++next;
      held.push_back(&samples[i]);
    } else {
      train.push_back(&samples[i]);
      train_samples.push_back(samples[i]);
    }
  }
  EngineFit out;
  out.held_out_region = split.region;
  std::vector<int> free;
  out.kept_at_preset = unidentified_terms(samples, preset, &free);
  if (!held.empty() && !train.empty()) {
    // The held-out fit frees only what its own samples identify: a region they lack (the largest
    // batches) leaves the terms only it moves at the preset's, as a profile would be used there.
    std::vector<int> train_free;
    unidentified_terms(train_samples, preset, &train_free);
    const Scored s = score(fit(train, preset, train_free), held);
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
  for (int i : free) {
    *written[i] = term(fitted, i);
    if (term(fitted, i) >= 0.999 * kBound[i]) {
      char bound[32];
      std::snprintf(bound, sizeof bound, "%g ms", kBound[i] * 1e3);
      out.at_bound.push_back(std::string(kTermNames[i]) + ": at its bound " + bound + " (" + kBoundReason[i] +
                             "): the measurements ask for more than the terms explain");
    }
  }
  return out;
}

}  // namespace rlsim
