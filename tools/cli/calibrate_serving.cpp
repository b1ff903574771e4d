// Serving calibration: kernels predicted per measured iteration, engine terms fitted to the rest.
#include "tools/cli/calibrate_serving.h"

#include <memory>

#include "calibrate/device_facts.h"
#include "calibrate/serving_importer.h"
#include "models/cost/cost_model_registry.h"
#include "models/cost/profiled_cost_model.h"
#include "sim/scenario/profile_loader.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/iteration_pricing.h"

namespace rlsim {

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
      const std::optional<CollectiveFit> allreduce = tp_allreduce_fit(out.profile, m.tp);
      const IterationQuery query{m.tp, m.batch, m.prompt_tokens, m.context_tokens, m.prefill};
      const PricedIteration priced =
          price_iteration(query, model, card, *cost, allreduce ? &*allreduce : nullptr);
      samples.push_back(ServingSample{priced.shape, priced.kernels_s, priced.allreduce_s, m.measured_s});
    }
    out.profile.sources.push_back(ProfileSource{input, static_cast<int>(rows.size())});
  }
  out.fit = fit_engine_terms(samples, preset);
  out.profile.engine = out.fit.terms;
  out.profile.engine_error = out.fit.error;
  out.samples = static_cast<int>(samples.size());
  return out;
}

}  // namespace rlsim
