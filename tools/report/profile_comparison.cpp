// The with/without-profile table of `rlsim run --compare-profile` (profile_comparison.h).
#include "tools/report/profile_comparison.h"

#include <vector>

#include "tools/report/text_format.h"

namespace rlsim {

std::string profile_comparison_text(const nlohmann::json& with_profile, const nlohmann::json& datasheet) {
  struct Figure {
    std::string label;
    nlohmann::json::json_pointer at;
    bool seconds;
  };
  std::vector<Figure> figures{
      {"step time, steady state", nlohmann::json::json_pointer("/step_time_s/steady_mean"), true}};
  for (const auto& [phase, value] : with_profile["phases_s"].items()) {
    (void)value;
    figures.push_back(
        {"phase " + phase + " (mean)", nlohmann::json::json_pointer("/phases_s/" + phase), true});
  }
  for (const auto& [name, value] : with_profile["verl_timing_s"].items()) {
    (void)value;
    figures.push_back(
        {"verl " + name + " (mean)", nlohmann::json::json_pointer("/verl_timing_s/" + name), true});
  }
  figures.push_back({"samples/s", nlohmann::json::json_pointer("/throughput/samples_per_s"), false});
  std::string out =
      "profile against the datasheet roofline (same scenario and seed, cost_model: roofline):\n  " +
      padded("figure", 30) + padded("with profile", 15) + padded("datasheet", 15) + "change\n";
  for (const auto& f : figures) {
    if (!with_profile.contains(f.at) || !datasheet.contains(f.at)) continue;
    const double a = with_profile.at(f.at).get<double>(), b = datasheet.at(f.at).get<double>();
    const auto show = [&](double v) { return f.seconds ? readable_duration(v) : fixed(v, 2); };
    out += "  " + padded(f.label, 30) + padded(show(a), 15) + padded(show(b), 15) +
           (b != 0.0 ? formatted("%+.1f %%", 100.0 * (a / b - 1.0)) : std::string("-")) + "\n";
  }
  return out;
}

}  // namespace rlsim
