// LedgerEntry: one LLM call as the data plane recorded it — which trajectory, turn and step, which
// instance served it with which weights, its tokens and its times. `rlsim run` writes the ledger as
// trajectories.jsonl when the scenario asks for it (cluster.dataplane.ledger).
#pragma once

namespace rlsim {

struct LedgerEntry {
  int trajectory = 0;
  int turn = 0;
  int step = 0;
  int instance = 0;
  double mean_weight_version = 0.0;  ///< weight version per generated token, averaged
  double prompt_tokens = 0.0;        ///< new tokens of this call (prompt or observation)
  double prefilled_tokens = 0.0;     ///< tokens actually prefilled (less with a prefix-cache hit)
  double output_tokens = 0.0;
  double submit_s = 0.0;
  double first_token_s = 0.0;
  double finish_s = 0.0;
};

}  // namespace rlsim
