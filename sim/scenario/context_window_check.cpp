// Sequence lengths against the model's context window (context_window_check.h).
#include "sim/scenario/context_window_check.h"

#include <algorithm>

#include "sim/scenario/distribution_reader.h"
#include "sim/scenario/request_trace_reader.h"

namespace rlsim {
namespace {

std::string tokens(double count) { return std::to_string(static_cast<int64_t>(count)) + " tokens"; }

/// ", or raise <block>.max_model_len (up to N)" when the model can be set to a longer window.
std::string raise_hint(const ModelArch& m, int64_t max_model_len, const std::string& block) {
  if (longest_context_tokens(m) <= max_model_len) return "";
  return ", or raise " + block + ".max_model_len (up to " + std::to_string(longest_context_tokens(m)) + ")";
}

/// "serve.max_model_len (8192 tokens; llama-3-70b's context window is …)".
std::string limit_phrase(const ModelArch& m, int64_t max_model_len, const std::string& block) {
  return block + ".max_model_len (" + tokens(static_cast<double>(max_model_len)) + "; " +
         context_window_phrase(m) + ")";
}

/// "a lognormal" / "a normal": the uncapped distribution's name.
std::string uncapped_name(const Distribution& d) {
  return d.kind == Distribution::Kind::lognormal ? "a lognormal" : "a normal";
}

/// InputError at the prompt or output distribution when either has no cap, or when their largest
/// draws together pass `length` tokens: `sequence` names what is sent ("request", "first call"),
/// `limit` the max_model_len it is held to (limit_phrase), `raise` the fix beyond shorter sequences.
void check_largest_sequence(const YamlReader& workload, const Distribution& prompt,
                            const Distribution& output, const std::string& sequence, int64_t length,
                            const std::string& limit, const std::string& raise) {
  for (const auto& [key, d] : {std::pair<const char*, const Distribution&>{"prompt_tokens", prompt},
                               std::pair<const char*, const Distribution&>{"output_tokens", output}}) {
    if (!d.capped()) {
      workload.fail(key, uncapped_name(d) + " without a cap could draw a " + sequence + " past " + limit +
                             ", which a real engine answers with an error; expected a cap (max: …)");
    }
  }
  if (prompt.largest() + output.largest() > static_cast<double>(length)) {
    workload.fail(prompt.largest() >= output.largest() ? "prompt_tokens" : "output_tokens",
                  "the largest " + sequence + " (" + tokens(prompt.largest()) + " of prompt + " +
                      tokens(output.largest()) + " of output) passes " + limit +
                      ": a real engine answers it with an error; expected prompt_tokens + output_tokens at "
                      "most " +
                      std::to_string(length) + raise);
  }
}

}  // namespace

int64_t longest_context_tokens(const ModelArch& m) {
  return std::max(m.context_window_tokens, m.extended_context_tokens);
}

std::string context_window_phrase(const ModelArch& m) {
  std::string phrase = m.name + "'s context window is " +
                       tokens(static_cast<double>(m.context_window_tokens)) + " (max_position_embeddings)";
  if (m.extended_context_tokens > 0)
    phrase += ", " + tokens(static_cast<double>(m.extended_context_tokens)) +
              " with the long-context extension its authors document";
  return phrase;
}

int64_t read_max_model_len(YamlReader& r, const ModelArch& m) {
  const int64_t length =
      r.integer_or({"max_model_len",
                    "tokens one sequence may hold, prompt and output together (vLLM's "
                    "--max-model-len, SGLang's --context-length)",
                    "tokens", "the model's context window (rlsim list models)"},
                   m.context_window_tokens, 1, static_cast<int64_t>(kMaxTokensPerSequence));
  if (length > longest_context_tokens(m)) {
    r.fail("max_model_len", "expected at most " + std::to_string(longest_context_tokens(m)) + " tokens: " +
                                context_window_phrase(m) + "; an engine refuses a longer max_model_len");
  }
  return length;
}

void check_trajectory_context(const Scenario& s, const YamlReader& workload, const YamlReader& rollout) {
  const WorkloadSpec& w = s.workload;
  const int64_t length = s.rollout.max_model_len;
  const std::string limit = limit_phrase(s.model, length, rollout.path());
  const std::string raise = raise_hint(s.model, length, rollout.path());
  if (w.max_context_tokens > static_cast<double>(length)) {
    workload.fail("max_context_tokens", "a context limit of " + tokens(w.max_context_tokens) + " passes " +
                                            limit +
                                            ": the engine would refuse the calls past it; expected at most " +
                                            std::to_string(length) + raise);
  }
  if (!w.replayed.empty()) {
    // Named at the line of the turn whose call first passes the limit: the line to look at.
    for (size_t i = 0; i < w.replayed.size(); ++i) {
      double context = 0.0;
      for (const ReplayedTurn& turn : w.replayed[i].turns) {
        context += turn.prompt_tokens + turn.output_tokens;
        if (context <= static_cast<double>(length)) continue;
        throw InputError({w.trajectories_path, turn.line, 1},
                         "recorded trajectory " + std::to_string(i + 1) + " (of " +
                             std::to_string(w.replayed.size()) + ") reaches " + tokens(context) +
                             " of context at this turn, past " + limit +
                             ": the engine would have refused this call; expected trajectories recorded "
                             "with this model's window" +
                             raise);
      }
    }
    return;
  }
  check_largest_sequence(workload, w.prompt_tokens, w.output_tokens, "first call", length, limit, raise);
  const double prompt = w.prompt_tokens.largest();
  if (w.max_context_tokens > 0.0 && prompt >= w.max_context_tokens) {
    workload.fail("prompt_tokens", "the largest first prompt (" + tokens(prompt) +
                                       ") leaves no room for an output within workload.max_context_tokens (" +
                                       tokens(w.max_context_tokens) + "); expected prompts below it");
  }
}

void check_request_context(const Scenario& s, const ServeWorkloadSpec& w, const YamlReader& workload,
                           const YamlReader& serve) {
  const int64_t length = s.rollout.max_model_len;
  const std::string limit = limit_phrase(s.model, length, serve.path());
  const std::string raise = raise_hint(s.model, length, serve.path());
  if (w.arrivals == ArrivalMode::trace) {
    const size_t i = longest_request(w.trace);
    const TracedRequest& r = w.trace[i];
    if (r.prompt_tokens + r.output_tokens > static_cast<double>(length)) {
      throw InputError({w.trace_path, r.line, 1},
                       "request " + std::to_string(i + 1) + " of the trace (" + tokens(r.prompt_tokens) +
                           " of prompt + " + tokens(r.output_tokens) + " of output) passes " + limit +
                           ": a real engine answers it with an error; expected requests within it" + raise);
    }
    return;
  }
  check_largest_sequence(workload, w.prompt_tokens, w.output_tokens, "request", length, limit, raise);
}

void check_within_context_window(const ModelArch& m, double count, const std::string& what,
                                 const SourceLocation& where) {
  if (count <= static_cast<double>(longest_context_tokens(m))) return;
  throw InputError(where, what + " (" + tokens(count) + ") passes what any engine serves of " + m.name +
                              ": " + context_window_phrase(m));
}

}  // namespace rlsim
