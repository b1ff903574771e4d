// How a run's figures were priced, in a summary's words and in metrics.json: the cost model and
// profile that answered its ops, and the precision its weights were multiplied in.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "models/cost/tallied_cost_model.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// The profile's file name ("h100.yaml"), or "" without one (its folder differs between machines).
std::string profile_file(const std::string& profile);

/// "profile h100.yaml", or the cost model's name alone without a profile.
std::string cost_model_text(const std::string& cost_model, const std::string& profile);

/// "profile h100.yaml; ops priced: gemm 812 measured, 40 interpolated; attention_decode 200 datasheet",
/// then where the run uses the profile's engine terms outside their fitted range
/// (Scenario::profile_range_notes).
std::string pricing_text(const Scenario& scenario, const std::string& cost_model, const PriceTally& prices);

/// metrics.json's "pricing": the cost model, the profile's file name ("" without one), the tally and
/// `outside_fitted_range`, the profile-range notes (absent when none).
nlohmann::json pricing_json(const Scenario& scenario, const std::string& cost_model,
                            const PriceTally& prices);

/// What `rlsim validate` says prices each card of the cluster, one indented line: "  priced by:
/// H100: profile h100.yaml; H20: the datasheet roofline (no calibrated profile; rlsim calibrate
/// makes one)". `profile_card` is the card the scenario's profile was measured on ("" without one).
std::string pricing_basis_line(const Scenario& scenario, const std::string& profile_card);

/// Where the inference weights' precision has no tensor-core peak on the card, what the roofline
/// multiplies them at instead: quantised weights (fp8 on A100, int4 anywhere) weight-only, "fp8
/// weights on A100, which has no fp8 peak: stored as fp8, multiplied at its bf16 peak (weight-only,
/// …)"; fp32 weights at the 16-bit peak, said to be an optimistic bound. Empty otherwise.
std::string weight_only_note(const HardwareSpec& card, Precision weights);

}  // namespace rlsim
