// What an earlier plan in the same folder simulated (plan_reuse.h).
#include "tools/plan/plan_reuse.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace rlsim {
namespace {

std::string sets_key(const std::vector<std::string>& sets) {
  std::string key;
  for (const std::string& set : sets) key += set + "\n";
  return key;
}

bool known(PointStatus status) {
  return status == PointStatus::simulated || status == PointStatus::refused_memory ||
         status == PointStatus::refused;
}

}  // namespace

std::string plan_base_key(const std::string& resolved_yaml) {
  uint64_t hash = 1469598103934665603ull;
  for (const unsigned char c : resolved_yaml) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string plan_points_json(const std::vector<PlanPoint>& points, const PoolShape& pools,
                             const std::string& key) {
  nlohmann::json out{{"scenario_key", key}, {"points", nlohmann::json::array()}};
  for (const PlanPoint& p : points) {
    if (known(p.status))
      out["points"].push_back({{"sets", p.arrangement.sets(pools)}, {"figures", trial_json(p.figures)}});
  }
  return out.dump(1) + "\n";
}

std::optional<size_t> reuse_plan_points(const std::string& path, const std::string& key,
                                        const PoolShape& pools, std::vector<PlanPoint>& points) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::map<std::string, TrialFigures> earlier;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.value("scenario_key", "") != key) return std::nullopt;
    for (const nlohmann::json& p : j.at("points"))
      earlier[sets_key(p.at("sets").get<std::vector<std::string>>())] = trial_figures(p.at("figures").dump());
  } catch (const std::exception&) {
    return std::nullopt;  // not a plan's file
  }
  size_t reused = 0;
  for (PlanPoint& p : points) {
    const auto it = earlier.find(sets_key(p.arrangement.sets(pools)));
    if (it == earlier.end()) continue;
    p.figures = it->second;
    p.status = p.figures.ran      ? PointStatus::simulated
               : p.figures.memory ? PointStatus::refused_memory
                                  : PointStatus::refused;
    p.reused = true;
    ++reused;
  }
  return reused;
}

}  // namespace rlsim
