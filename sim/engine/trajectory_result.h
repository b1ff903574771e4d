// TrajectoryResult: a finished trajectory as the trainer sees it, made by its agent.
#pragma once

#include <vector>

#include "sim/engine/request.h"

namespace rlsim {

struct TrajectoryResult {
  int id = 0;
  int step = 0;
  double generated_tokens = 0.0;
  double total_tokens = 0.0;       ///< prompt + observations + outputs (the training sequence)
  double version_token_sum = 0.0;  ///< Σ over generated tokens of the weight version that made them
  double finish_s = 0.0;
  double llm_wait_s = 0.0;  ///< agent time waiting on LLM replies
  double tool_s = 0.0;      ///< agent time in tools
  bool truncated = false;   ///< its last reply was cut at the length cap or the context limit

  /// Every call as its reply came back (times, tokens, instance).
  std::vector<LlmRequest> calls;
};

}  // namespace rlsim
