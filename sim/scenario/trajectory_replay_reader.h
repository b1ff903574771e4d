// Reading recorded trajectories for an RL workload's replay (`workload.trajectories: FILE.jsonl`):
// the lengths of each trajectory's turns (prompt or observation tokens, output tokens) and the
// tool latency after each, replayed instead of drawn from the workload's distributions. One JSON
// object per line, in either of two shapes:
//   {"turns": [{"prompt_tokens": 512, "output_tokens": 900, "tool_latency_s": 2.5}, ...]}
//     one trajectory per line (tool_latency_s optional, 0 by default);
//   {"trajectory": 7, "turn": 0, "prompt_tokens": 512, "output_tokens": 900, "submit_s": ..., "finish_s":
//   ...}
//     one LLM call per line, as rlsim's own ledger (trajectories.jsonl, written by `rlsim run` with
//     cluster.dataplane.ledger) records them: calls are grouped by trajectory (trajectories in id
//     order, turns in turn order) and a tool's latency is the time from a call's last token to the
//     next turn's send (which also holds the reply's and the call's network transfer).
// Blank lines are skipped; errors name FILE:LINE:COL.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace rlsim {

std::vector<ReplayedTrajectory> read_trajectories_jsonl(const std::string& file);

}  // namespace rlsim
