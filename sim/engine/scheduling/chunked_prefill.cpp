// Chunked prefill: decodes first, then prompt chunks in the iteration's token budget, one forward
// pass per iteration.
#include "sim/engine/scheduling/chunked_prefill.h"

#include <algorithm>
#include <cmath>

#include "sim/engine/scheduling/kv_admission.h"

namespace rlsim {

RLSIM_REGISTER_REPLICA_SCHEDULER(
    ChunkedPrefillScheduler, kChunkedPrefillScheduler,
    "Sarathi-Serve / vLLM V1 / SGLang --enable-mixed-chunk batching: decodes and prompt chunks share "
    "each iteration's token budget and run as one forward pass",
    (ParamSchema{ParamSpec::integer(
        "token_budget", 8192, 16, int64_t{1} << 24,
        "tokens one iteration computes at most (decodes + prefill chunks; vLLM max_num_batched_tokens, "
        "SGLang chunked_prefill_size): smaller keeps decode iterations short, larger prefills faster",
        "tokens")}));

ChunkedPrefillScheduler::ChunkedPrefillScheduler(const ParamValues& params, const SchedulerLimits& limits)
    : ChunkedPrefillScheduler(params, limits, true) {}

ChunkedPrefillScheduler::ChunkedPrefillScheduler(const ParamValues& params, const SchedulerLimits& limits,
                                                 bool split_prompts)
    : limits_(limits), token_budget_(params.integer("token_budget")), split_prompts_(split_prompts) {}

IterationPlan ChunkedPrefillScheduler::schedule(ReplicaState& replica) {
  IterationPlan plan;
  std::vector<size_t> decoding;
  bool prompts_under_way = false;
  for (size_t i = 0; i < replica.running.size(); ++i) {
    if (replica.running[i].needs_prefill) {
      prompts_under_way = true;
    } else {
      decoding.push_back(i);
    }
  }
  // Out of KV blocks for the decoding sequences: the newest sequence gives its KV up.
  if (!decoding.empty()) {
    const double free = limits_.kv_capacity_tokens - replica.kv_in_use();
    if (std::floor(free / static_cast<double>(decoding.size())) < kKvBlockTokens &&
        preempt_newest(replica, limits_, plan))
      return plan;
  }
  int64_t budget = token_budget_ - static_cast<int64_t>(decoding.size());
  for (size_t i = 0; i < replica.running.size() && budget > 0; ++i) {
    if (replica.running[i].needs_prefill && replica.running[i].prefill_left > 0.0)
      plan_chunk(replica, i, budget, plan);
  }
  while (budget > 0 && oldest_fits(replica, budget, plan)) {
    const auto admitted = admit_oldest(replica, limits_);
    if (!admitted) break;
    if (admitted->restore) {
      plan.prefill.push_back(*admitted);  // KV copied back, not computed: outside the budget
    } else {
      prompts_under_way = true;
      plan_chunk(replica, admitted->sequence, budget, plan);
    }
  }
  if (plan.prefill.empty() && !prompts_under_way) {
    // Nothing to prefill: a decode stretch, cut short by the next arrival.
    plan_decode_stretch(replica, limits_, plan);
    return plan;
  }
  if (!decoding.empty()) {
    plan.decode = decoding;
    plan.decode_iterations = 1;
  }
  return plan;
}

std::optional<double> ChunkedPrefillScheduler::longest_prompt_tokens() const {
  if (split_prompts_) return std::nullopt;
  return static_cast<double>(token_budget_);
}

bool ChunkedPrefillScheduler::oldest_fits(const ReplicaState& replica, int64_t budget,
                                          const IterationPlan& plan) const {
  if (split_prompts_) return true;
  const double tokens = oldest_prompt_tokens(replica);
  if (tokens <= static_cast<double>(budget)) return true;
  // A prompt longer than the whole budget would never fit: it runs as its iteration's only prompt.
  // One that fits the budget but not what is left of it waits, and so do the calls behind it.
  const bool computes_a_prompt =
      std::any_of(plan.prefill.begin(), plan.prefill.end(), [](const PrefillWork& w) { return !w.restore; });
  return !computes_a_prompt && tokens > static_cast<double>(token_budget_);
}

void ChunkedPrefillScheduler::plan_chunk(ReplicaState& replica, size_t index, int64_t& budget,
                                         IterationPlan& plan) const {
  Sequence& s = replica.running[index];
  PrefillWork work;
  work.sequence = index;
  work.tokens = split_prompts_ ? std::min(s.prefill_left, static_cast<double>(budget)) : s.prefill_left;
  work.context_tokens = std::max(0.0, s.tokens_in_context() - s.prefill_left);
  work.completes_prompt = work.tokens >= s.prefill_left;
  s.prefill_left -= work.tokens;
  budget -= static_cast<int64_t>(std::ceil(work.tokens));
  plan.prefill.push_back(work);
}

}  // namespace rlsim
