// What `rlsim compare` prints and writes: one row per policy, ranked by an objective (step time,
// throughput, bubble by cause, staleness, TPOT, cost, advice) as a text table and as compare.csv, and
// compare.svg — stacked bars of GPU time per step by state, one bar per policy — that reads well in a
// browser.
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
struct CompareObjective;
/// The rows best first by `objective`, each with its rank, figures and advice, then the winner.
std::string compare_table(const std::string& scenario, const std::vector<ComparedPolicy>& rows,
                          const CompareObjective& objective);
/// Header `policy,rank,steady_step_time_s,samples_per_s,bubble_fraction,<causes…>,
/// staleness_versions,tpot_p50_ms,usd_per_step,usd_per_1m_tokens,recommendation,best_measured`,
/// rows best first by `objective`.
std::string compare_csv(const std::vector<ComparedPolicy>& rows, const CompareObjective& objective);
/// Stacked bars of GPU-seconds per step by state, one per policy, best first by `objective`, the
/// winner marked and each bar labelled with its objective value; the title names `setup` (the
/// model and the cards), the subtitle the scenario.
std::string compare_svg(const std::string& scenario, const std::string& setup,
                        const std::vector<ComparedPolicy>& rows, const CompareObjective& objective);
/// For pools of different cards: which card the roofline says should train and which should roll
/// out, and whether the scenario follows it; empty when every pool has the same card.
std::string card_preference_note(const Scenario& scenario);

}  // namespace rlsim
