// The by-name registry of cost models ("roofline" in models/cost/roofline_cost_model.cpp, "profile"
// in sim/scenario/profile_loader.cpp). Each registers in one line of its own file with the schema
// of its parameters (RLSIM_REGISTER_COST_MODEL); scenarios name one (`cost_model: roofline` or
// `cost_model: {name: roofline, bandwidth: 0.9}`) and `rlsim list cost-models` shows them. The
// libraries holding them are linked whole-archive, so every registration is kept.
#pragma once

#include <memory>
#include <string>

#include "models/cost/cost_model.h"
#include "models/input_error.h"
#include "models/registry/registry.h"

namespace rlsim {

/// A cost model is made from its parameters, a calibrated hardware profile (a path, or empty for
/// datasheet figures only) and where it was chosen (for errors about the profile).
using CostModelRegistry = Registry<CostModel, const std::string&, const SourceLocation&>;

/// The cost model `choice` names (InputError at choice.where listing the valid names when unknown),
/// its parameters not set in `choice` at their defaults.
std::unique_ptr<CostModel> make_cost_model(const PluginSpec& choice, const std::string& profile = "");

}  // namespace rlsim

/// RLSIM_REGISTER_COST_MODEL(factory, "name", "description", ParamSpec...): `factory` makes the
/// model from (ParamValues, profile, where); the ParamSpecs are its schema.
#define RLSIM_REGISTER_COST_MODEL(factory, name, description, ...) \
  [[maybe_unused]] static const bool rlsim_registered_##factory =  \
      ::rlsim::CostModelRegistry::instance().add(                  \
          {name, description, ::rlsim::ParamSchema{__VA_ARGS__}, factory, 0})
