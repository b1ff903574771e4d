// What `rlsim compare` prints and writes: one row per policy (step time, throughput, bubble by
// cause, cost, advice) as a text table and as compare.csv, and compare.svg — stacked bars of GPU
// time per step by state, one bar per policy — that reads well in a browser.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace rlsim {

/// One policy's outcome: its metrics.json, or why it was skipped.
struct ComparedPolicy {
  std::string policy;
  nlohmann::json metrics;  ///< null when skipped
  std::string skipped;     ///< reason, when skipped
};

/// Bubble causes shown as columns: the four of docs/design.md §4 (always reported), then any other
/// cause of the name table (sim/platform/gpu_state.h) a run reported, alphabetically.
std::vector<std::string> compare_causes(const std::vector<ComparedPolicy>& rows);
std::string compare_table(const std::string& scenario, const std::vector<ComparedPolicy>& rows);
/// Header
/// `policy,step_time_s,samples_per_s,bubble_fraction,<causes…>,usd_per_step,usd_per_1m_tokens,recommendation`.
std::string compare_csv(const std::vector<ComparedPolicy>& rows);
std::string compare_svg(const std::string& scenario, const std::vector<ComparedPolicy>& rows);
/// For pools of different cards: which card the roofline says should train and which should roll
/// out, and whether the scenario follows it; empty when every pool has the same card.
std::string card_preference_note(const Scenario& scenario);

}  // namespace rlsim
