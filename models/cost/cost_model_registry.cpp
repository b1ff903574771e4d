// The cost-model registry; "roofline" is built in here so a static library cannot drop it.
#include "models/cost/cost_model_registry.h"

#include <cstdlib>

#include "models/cost/roofline_cost_model.h"

namespace rlsim {
namespace {

/// Reads a RooflineEfficiency field from `settings`, rejecting text that is not a number in (0, max].
void read_setting(const CostModelOptions& options, const std::string& key, double max, double& field,
                  const SourceLocation& where) {
  auto it = options.settings.find(key);
  if (it == options.settings.end()) return;
  char* end = nullptr;
  const double value = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end != '\0' || !(value > 0.0) || value > max) {
    throw InputError(where, "cost model setting '" + key + "' must be a number in (0, " +
                                std::to_string(max) + "], got '" + it->second + "'");
  }
  field = value;
}

std::unique_ptr<CostModel> make_roofline(const CostModelOptions& options, const SourceLocation& where) {
  if (!options.profile.empty()) {
    throw InputError(where, "the roofline cost model uses datasheet figures only; a profile ('" +
                                options.profile + "') needs the 'profile' cost model");
  }
  RooflineEfficiency e;
  read_setting(options, "gemm_compute", 1.0, e.gemm_compute, where);
  read_setting(options, "gemm_half_dim", 1e6, e.gemm_half_dim, where);
  read_setting(options, "attention_compute", 1.0, e.attention_compute, where);
  read_setting(options, "bandwidth", 1.0, e.bandwidth, where);
  read_setting(options, "launch_overhead_s", 1.0, e.launch_overhead_s, where);
  for (const auto& [key, value] : options.settings) {
    if (key != "gemm_compute" && key != "gemm_half_dim" && key != "attention_compute" && key != "bandwidth" &&
        key != "launch_overhead_s") {
      throw InputError(where, "unknown roofline cost model setting '" + key +
                                  "'; valid values are: attention_compute, bandwidth, gemm_compute, "
                                  "gemm_half_dim, launch_overhead_s");
    }
  }
  return std::make_unique<RooflineCostModel>(e);
}

using Factories = std::map<std::string, CostModelFactory>;

Factories& factories() {
  static Factories table{{"roofline", make_roofline}};
  return table;
}

}  // namespace

bool register_cost_model(const std::string& name, CostModelFactory factory) {
  factories()[name] = std::move(factory);
  return true;
}

std::vector<std::string> cost_model_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories()) names.push_back(name);
  return names;
}

std::unique_ptr<CostModel> make_cost_model(const std::string& name, const CostModelOptions& options,
                                           const SourceLocation& where) {
  auto it = factories().find(name);
  if (it == factories().end()) {
    std::string valid;
    for (const std::string& known : cost_model_names()) valid += (valid.empty() ? "" : ", ") + known;
    throw InputError(where, "unknown cost model '" + name + "'; valid values are: " + valid);
  }
  return it->second(options, where);
}

}  // namespace rlsim
