// Sequence lengths against the model's context window, checked as input. An engine serves at most
// max_model_len tokens per sequence (prompt and output together): by default the window the model
// was trained with (config.json's max_position_embeddings), at most the long-context extension
// its authors document. vLLM refuses a longer --max-model-len and answers a request that would pass
// it with an error; an agent framework ends a conversation that no longer fits. A scenario whose
// sequences could pass it is an InputError at the field to change, naming the window and the fix.
#pragma once

#include <cstdint>
#include <string>

#include "models/model_arch.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/serve_spec.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// The longest window an engine can be set to for `m`: its documented extension, else its window.
int64_t longest_context_tokens(const ModelArch& m);

/// "llama-3-70b's context window is 8192 tokens (max_position_embeddings)", and its documented
/// extension where it has one: the phrase every refusal quotes.
std::string context_window_phrase(const ModelArch& m);

/// `max_model_len` of a rollout or serve block: the model's window when not written; an
/// InputError when written past the model's longest window.
int64_t read_max_model_len(YamlReader& r, const ModelArch& m);

/// RL: an InputError when workload.max_context_tokens passes rollout.max_model_len, when a first
/// call's largest prompt and output pass it (or a length distribution has no cap), when a first
/// prompt leaves no room within max_context_tokens, or when a recorded trajectory's context passes
/// max_model_len (at the JSONL line of the turn that passes it). Contexts that grow past it over turns are
/// not refused: the trajectory ends there, its last reply cut (WorkloadSpec::context_limit_tokens).
void check_trajectory_context(const Scenario& s, const YamlReader& workload, const YamlReader& rollout);

/// Serving: an InputError when one request's prompt and output could pass serve.max_model_len (a
/// trace's longest request, at its CSV line; the largest draws; a distribution without a cap).
void check_request_context(const Scenario& s, const ServeWorkloadSpec& w, const YamlReader& workload,
                           const YamlReader& serve);

/// InputError at `where` when `tokens` of one sequence (`what`) pass the longest window of `m`
/// (for costs and AFD batches, which have no max_model_len of their own).
void check_within_context_window(const ModelArch& m, double tokens, const std::string& what,
                                 const SourceLocation& where);

}  // namespace rlsim
