// `rlsim roofline --hardware H800:16,H20:16 [--model M]`: the weighted roofline of a mixed pool
// (models/cost/roofline.h) — its aggregate peak, bandwidth and ridge, the FLOP/s it attains at each
// arithmetic intensity with every card on its own roof, and, with a model, where each module of one
// decode iteration lands on it. Text, or JSON for scripts.
#pragma once

#include <string>
#include <vector>

#include "models/cost/roofline.h"
#include "models/model_arch.h"
#include "models/ops/module_costs.h"

namespace rlsim {

/// The arithmetic intensities the table lists: powers of two from 1 FLOP/byte to the first at or
/// above twice the largest member ridge, so every card's ridge is inside.
std::vector<double> intensity_grid(const WeightedRoofline& pool);

/// "H800 x16 + H20 x16".
std::string pool_name(const std::vector<PoolMember>& members);

/// The text report; `modules` empty: no model part.
std::string pool_roofline_text(const WeightedRoofline& pool, const std::string& model_line,
                               const std::vector<ModuleCost>& modules);
/// The same as JSON.
std::string pool_roofline_json(const WeightedRoofline& pool, const std::string& model,
                               const std::vector<ModuleCost>& modules);

}  // namespace rlsim
