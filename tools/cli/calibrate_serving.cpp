// Serving calibration: kernels predicted per measured iteration, engine terms fitted to the rest.
#include "tools/cli/calibrate_serving.h"

#include <algorithm>
#include <memory>

#include "calibrate/device_facts.h"
#include "calibrate/serving_importer.h"
#include "models/cost/cost_model_registry.h"
#include "models/cost/profiled_cost_model.h"
#include "models/tensor_parallel.h"
#include "sim/scenario/context_window_check.h"
#include "sim/scenario/profile_loader.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/iteration_pricing.h"

namespace rlsim {
namespace {

/// The batches, TP degrees and contexts `samples` span.
EngineFitRange fitted_range(const std::vector<ServingSample>& samples) {
  EngineFitRange r;
  bool first = true;
  for (const ServingSample& s : samples) {
    r.batch_min = first ? s.batch : std::min(r.batch_min, s.batch);
    r.batch_max = first ? s.batch : std::max(r.batch_max, s.batch);
    r.tp_min = first ? s.tp : std::min(r.tp_min, s.tp);
    r.tp_max = first ? s.tp : std::max(r.tp_max, s.tp);
    r.context_min = first ? s.context_tokens : std::min(r.context_min, s.context_tokens);
    r.context_max = first ? s.context_tokens : std::max(r.context_max, s.context_tokens);
    first = false;
  }
  return r;
}

/// Decode iterations priced one by one up to this many; past it, in this many runs of equal length.
constexpr int64_t kMostDecodeRuns = 256;

struct DecodeRun {
  int64_t context_tokens = 0;  ///< each sequence's context in the run's middle iteration
  double iterations = 0.0;
};

/// The decode iterations after a prefill of `prompt` tokens that generate `output` tokens (the
/// prefill makes the first): iteration k (1 … output − 1) sees prompt + k tokens of context, as an
/// instance counts them. Long outputs are priced in runs, each at its middle iteration's context
/// (a decode's cost grows linearly in context, so the run's total is kept).
std::vector<DecodeRun> decode_runs(int64_t prompt, int64_t output) {
  const int64_t decodes = output - 1;
  const int64_t runs = std::min(decodes, kMostDecodeRuns);
  std::vector<DecodeRun> out;
  for (int64_t r = 0; r < runs; ++r) {
    const int64_t first = 1 + decodes * r / runs, last = decodes * (r + 1) / runs;  // inclusive
    out.push_back(DecodeRun{prompt + (first + last) / 2, static_cast<double>(last - first + 1)});
  }
  return out;
}

}  // namespace

ServingCalibration calibrate_serving(const Catalog& catalog, const HardwareSpec& card,
                                     const std::vector<std::string>& inputs, const std::string& base_profile,
                                     const std::string& engine) {
  ServingCalibration out;
  std::unique_ptr<CostModel> cost;
  if (base_profile.empty()) {
    out.profile.card = card.name;
    out.profile.device = card.description;
    const auto facts = known_device_facts(card.name);
    out.profile.sm_count = facts ? facts->sm_count : 1;
    out.profile.l2_bytes = facts ? facts->l2_bytes : 0.0;
    cost = make_cost_model({"roofline"});
  } else {
    out.profile = load_profile(base_profile);
    check_profile_engines(out.profile, catalog);
    if (out.profile.card != card.name) {
      throw InputError(flag_location("--profile"),
                       "profile was fitted for " + out.profile.card + ", not " + card.name);
    }
    cost = std::make_unique<ProfiledCostModel>(out.profile, make_cost_model({"roofline"}));
  }
  const EngineOverhead& preset = catalog.engine(engine, flag_location("--engine"));
  std::vector<ServingSample> samples;
  for (const std::string& input : inputs) {
    const std::vector<ServingMeasurement> rows = import_serving_csv(input);
    for (const ServingMeasurement& m : rows) {
      if (m.hardware != card.name) {
        throw InputError(m.hardware_where, "expected measurements of " + card.name +
                                               " (--hardware), found '" + m.hardware + "'");
      }
      const ModelArch& model = catalog.model(m.model, m.model_where);
      // The rows `rlsim cost` would refuse are refused here too: whole heads per GPU, and sequences
      // within the longest window an engine serves the model at.
      if (const std::string problem = tensor_parallel_problem(model, m.tp); !problem.empty())
        throw InputError(m.where, "expected a tp that " + m.model + " runs at (" +
                                      tensor_parallel_degrees_text(model, 64) + "), found " + problem);
      const int64_t sequence_tokens =
          m.context_tokens + (m.phase == ServingPhase::prefill ? m.prompt_tokens : 0);
      if (sequence_tokens > longest_context_tokens(model))
        throw InputError(m.where, "expected sequences within the window an engine serves the model at (" +
                                      context_window_phrase(model) + "), found " +
                                      std::to_string(sequence_tokens) + " tokens");
      const TpAllReduce allreduce = pool_tp_allreduce(&out.profile, card, preset.name, m.tp);
      const auto priced = [&](const IterationQuery& query, double count) {
        const PricedIteration p = price_iteration(query, model, card, *cost, preset, allreduce);
        return ServingIteration{p.shape, p.kernels_s, p.allreduce_s, count};
      };
      ServingSample sample;
      sample.measured_s = m.measured_s;
      sample.batch = m.batch;
      sample.tp = m.tp;
      sample.context_tokens = m.context_tokens + (m.phase == ServingPhase::prefill ? m.prompt_tokens : 0);
      if (m.phase == ServingPhase::generate) {
        sample.iterations.push_back(priced({m.tp, m.batch, m.prompt_tokens, 0, true}, 1.0));
        for (const DecodeRun& run : decode_runs(m.prompt_tokens, m.generated_tokens()))
          sample.iterations.push_back(priced({m.tp, m.batch, 0, run.context_tokens, false}, run.iterations));
      } else {
        const bool prefill = m.phase == ServingPhase::prefill;
        sample.iterations.push_back(priced({m.tp, m.batch, m.prompt_tokens, m.context_tokens, prefill}, 1.0));
      }
      samples.push_back(std::move(sample));
    }
    out.profile.sources.push_back(ProfileSource{input, static_cast<int>(rows.size())});
  }
  out.fit = fit_engine_terms(samples, preset);
  out.profile.engine = out.fit.terms;
  out.profile.engine_error = out.fit.error;
  out.profile.engine_held_out_region = out.fit.held_out_region;
  out.profile.engine_range = fitted_range(samples);
  out.samples = static_cast<int>(samples.size());
  return out;
}

}  // namespace rlsim
