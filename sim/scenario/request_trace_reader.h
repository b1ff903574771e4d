// Reading a request trace for `kind: serve` replay: a CSV whose header is exactly
// `arrival_s,prompt_tokens,output_tokens`, then one request per line (arrival in seconds from the
// start, non-decreasing; token counts whole and ≥ 1 for the output). Blank lines and lines starting
// with '#' are skipped. Errors name FILE:LINE:COL.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/serve_spec.h"

namespace rlsim {

std::vector<TracedRequest> read_request_trace(const std::string& file);

/// The index of the longest request of a non-empty `trace` (prompt and output together; the first
/// of equals): the one that meets max_model_len and the KV cache first.
size_t longest_request(const std::vector<TracedRequest>& trace);

}  // namespace rlsim
