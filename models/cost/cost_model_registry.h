// The by-name registry of cost models ("roofline", and "profile" once the calibration registers
// it). Scenarios and `rlsim cost` name a model; an unknown name is an InputError listing the valid
// ones. Registration is explicit (`register_cost_model`), or from a static initialiser in a library
// that is linked whole-archive; "roofline" is always there.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/input_error.h"

namespace rlsim {

/// What a scenario or the command line passes to a cost model when it is made. Open for new keys:
/// a model reads the ones it knows and rejects what it cannot use.
struct CostModelOptions {
  /// Calibrated hardware profile (a path or a name the model understands); empty = datasheet only.
  std::string profile;
  /// Free-form settings ("bandwidth" -> "0.9"), for models with tunable parameters.
  std::map<std::string, std::string> settings;
};

/// Makes a model from its options; throws InputError at the given location for options it cannot use.
using CostModelFactory =
    std::function<std::unique_ptr<CostModel>(const CostModelOptions&, const SourceLocation& where)>;

/// Adds (or replaces) a cost model under `name`; returns true so it can run in a static initialiser.
bool register_cost_model(const std::string& name, CostModelFactory factory);
/// Names of every registered cost model, sorted.
std::vector<std::string> cost_model_names();
/// Makes the model `name`, or throws InputError at `where` ("unknown cost model 'x'; valid values
/// are: profile, roofline").
std::unique_ptr<CostModel> make_cost_model(const std::string& name, const CostModelOptions& options = {},
                                           const SourceLocation& where = {"cost_model", 0, 0});

}  // namespace rlsim
