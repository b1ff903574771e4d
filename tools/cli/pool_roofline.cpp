// The weighted roofline of a mixed pool, as text and JSON (pool_roofline.h).
#include "tools/cli/pool_roofline.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/units.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

using Json = nlohmann::ordered_json;

std::string member_name(const PoolMember& m) { return m.card.name + " x" + std::to_string(m.count); }

std::string tflops(double flops_per_s) { return fixed(flops_per_s / 1e12, 1); }

/// "memory on H20, compute on H800": each member's bound for `module`.
std::string bounds_text(const WeightedRoofline& pool, const ModuleCost& module) {
  std::string out;
  for (const auto& m : pool.members) {
    out += (out.empty() ? "" : ", ") + std::string(to_string(module.bound_on(m.card))) + " on " + m.card.name;
  }
  return out;
}

}  // namespace

std::vector<double> intensity_grid(const WeightedRoofline& pool) {
  double top = 0.0;
  for (const auto& m : pool.members) top = std::max(top, effective_ridge_point(m.card, pool.precision));
  std::vector<double> grid;
  for (double ai = 1.0; grid.empty() || grid.back() < 2.0 * top; ai *= 2.0) grid.push_back(ai);
  return grid;
}

std::string pool_name(const std::vector<PoolMember>& members) {
  std::string out;
  for (const auto& m : members) out += (out.empty() ? "" : " + ") + member_name(m);
  return out;
}

std::string pool_roofline_text(const WeightedRoofline& pool, const std::string& model_line,
                               const std::vector<ModuleCost>& modules) {
  std::ostringstream out;
  out << "Mixed pool " << pool_name(pool.members) << " at " << to_string(pool.precision) << ": peak "
      << format_quantity(pool.peak_flops, Quantity::flop_rate) << ", memory bandwidth "
      << format_quantity(pool.mem_bw_bytes_per_s, Quantity::bandwidth) << ", ridge " << fixed(pool.ridge(), 1)
      << " FLOP/byte (sum of peaks / sum of bandwidths)\n  ridge per card:";
  for (const auto& m : pool.members)
    out << " " << m.card.name << " " << fixed(effective_ridge_point(m.card, pool.precision), 1);
  out << " FLOP/byte\n\nAttainable TFLOP/s by arithmetic intensity (every card on its own roof):\n"
      << padded("AI FLOP/B", 11);
  for (const auto& m : pool.members) out << padded(member_name(m), 14);
  out << padded("pool", 12) << "of pool peak\n";
  for (double ai : intensity_grid(pool)) {
    out << padded(fixed(ai, 0), 11);
    for (const auto& m : pool.members) {
      out << padded(tflops(m.count * attainable_flops(compute_peak(m.card, pool.precision),
                                                      m.card.mem_bw_bytes_per_s, ai)),
                    14);
    }
    const double attained = pool.attainable(ai);
    out << padded(tflops(attained), 12) << fixed(100.0 * attained / pool.peak_flops, 1) << " %\n";
  }
  if (modules.empty()) return out.str();
  out << "\n"
      << model_line << ", per module:\n"
      << padded("module", 14) << padded("AI FLOP/B", 11) << padded("pool TFLOP/s", 14) << padded("of peak", 9)
      << padded("time ms", 10) << "bound per card\n";
  for (const auto& module : modules) {
    const WeightedRoofline roof = weighted_roofline(pool.members, module.compute);
    const double ai = module.arithmetic_intensity();
    const double attained = roof.attainable(ai);
    out << padded(module.name, 14) << padded(fixed(ai, 1), 11) << padded(tflops(attained), 14)
        << padded(fixed(100.0 * attained / roof.peak_flops, 1) + " %", 9)
        << padded(fixed(1e3 * module.flops / attained, 3), 10) << bounds_text(pool, module) << "\n";
  }
  out << "(time: the module's FLOPs spread over the pool in proportion to what each card attains)\n";
  return out.str();
}

std::string pool_roofline_json(const WeightedRoofline& pool, const std::string& model,
                               const std::vector<ModuleCost>& modules) {
  Json out;
  Json members = Json::array();
  for (const auto& m : pool.members) {
    members.push_back({{"hardware", m.card.name},
                       {"count", m.count},
                       {"ridge_flop_per_byte", effective_ridge_point(m.card, pool.precision)}});
  }
  out["members"] = members;
  out["precision"] = std::string(to_string(pool.precision));
  out["peak_flops"] = pool.peak_flops;
  out["mem_bw_bytes_per_s"] = pool.mem_bw_bytes_per_s;
  out["ridge_flop_per_byte"] = pool.ridge();
  Json grid = Json::array();
  for (double ai : intensity_grid(pool))
    grid.push_back({{"arithmetic_intensity", ai}, {"flops_per_s", pool.attainable(ai)}});
  out["attainable"] = grid;
  if (!modules.empty()) {
    out["model"] = model;
    Json list = Json::array();
    for (const auto& module : modules) {
      const WeightedRoofline roof = weighted_roofline(pool.members, module.compute);
      const double attained = roof.attainable(module.arithmetic_intensity());
      Json bounds;
      for (const auto& m : pool.members)
        bounds[m.card.name] = std::string(to_string(module.bound_on(m.card)));
      list.push_back({{"name", module.name},
                      {"flops", module.flops},
                      {"bytes", module.bytes},
                      {"arithmetic_intensity", module.arithmetic_intensity()},
                      {"pool_flops_per_s", attained},
                      {"seconds", module.flops / attained},
                      {"bound", bounds}});
    }
    out["modules"] = list;
  }
  return out.dump(2) + "\n";
}

}  // namespace rlsim
