// Running a plan: prefill and restore execs, interruptible decode stretches, token accounting.
#include "sim/engine/iteration_runner.h"

#include <algorithm>
#include <cmath>

#include "sim/engine/timed_work.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

void IterationRunner::run(const IterationPlan& plan, int version, const sg4::CommPtr& interrupt,
                          const Complete& complete) {
  if (plan.swap_out_tokens > 0.0)
    gpus_.run_busy(time_.kv_swap_s(plan.swap_out_tokens), GpuState::switching());
  if (!plan.prefill.empty()) {
    prefill(plan, version);
  } else if (plan.decode_iterations > 0) {
    decode(plan.decode, plan.decode_iterations, version, interrupt);
  }
  complete_finished(complete);
}

void IterationRunner::prefill(const IterationPlan& plan, int version) {
  // Restores copy KV back first; then the prefill chunks, with the decoding sequences of a mixed
  // iteration, run as one forward pass.
  double restore_s = 0.0;
  ForwardBatch batch;
  for (const PrefillWork& w : plan.prefill) {
    LlmRequest& call = *replica_.running[w.sequence].request;
    if (call.prefill_start_s < 0.0) call.prefill_start_s = sg4::Engine::get_clock();
    if (w.restore) {
      restore_s += time_.kv_swap_s(w.tokens);
    } else {
      batch.chunks.push_back({std::llround(w.tokens), std::llround(w.context_tokens)});
    }
  }
  if (!plan.decode.empty()) {
    batch.decode_sequences = static_cast<int64_t>(plan.decode.size());
    batch.decode_mean_context =
        replica_.context_tokens(plan.decode) / static_cast<double>(plan.decode.size());
  }
  gpus_.run_busy(restore_s, GpuState::switching());  // KV coming back from host memory
  if (batch.tokens() > 0)
    gpus_.run_busy(time_.forward_s(batch), GpuState::busy(Phase::rollout), time_.busy_share(batch));
  std::vector<size_t> prompts_done;
  for (const PrefillWork& w : plan.prefill) {
    if (w.completes_prompt) prompts_done.push_back(w.sequence);
  }
  replica_.prefilled(prompts_done, sg4::Engine::get_clock(), version);
  if (!plan.decode.empty()) replica_.generated(plan.decode, 1.0, version);
}

void IterationRunner::decode(const std::vector<size_t>& sequences, long iterations, int version,
                             const sg4::CommPtr& interrupt) {
  const auto batch = static_cast<double>(sequences.size());
  const double context_tokens = replica_.context_tokens(sequences);
  // Decode time is affine in context: the stretch's mean context gives its exact total.
  const double mean_context = context_tokens / batch + (static_cast<double>(iterations) - 1.0) / 2.0;
  const DecodeStretch stretch{iterations, time_.iteration_s(batch, mean_context),
                              time_.iteration_s(batch, context_tokens / batch)};
  const double busy_share = time_.busy_share(ForwardBatch{static_cast<int64_t>(sequences.size()), 0.0, {}});
  replica_.generated(sequences, static_cast<double>(run_stretch(stretch, busy_share, interrupt)), version);
}

long IterationRunner::run_stretch(const DecodeStretch& stretch, double busy_share,
                                  const sg4::CommPtr& interrupt) {
  const double start_s = sg4::Engine::get_clock();
  long done = stretch.iterations;
  if (!interrupt) {
    timed_work::run(stretch.total_s());
  } else if (timed_work::run_unless(stretch.total_s(), interrupt)) {
    // A message arrived mid-stretch: finish the current iteration, then re-plan.
    const DecodeStretch::Progress progress = stretch.progress(sg4::Engine::get_clock() - start_s);
    done = progress.iterations;
    if (progress.rest_s > 0.0) timed_work::run(progress.rest_s);
  }
  gpus_.record_pipelined(GpuState::busy(Phase::rollout), start_s, busy_share);
  return done;
}

void IterationRunner::complete_finished(const Complete& complete) {
  auto& running = replica_.running;
  const auto done = std::stable_partition(running.begin(), running.end(),
                                          [](const Sequence& s) { return s.remaining > 0.5; });
  for (auto it = done; it != running.end(); ++it) {
    complete(*it);
    replica_.release_shared_start(*it);
  }
  running.erase(done, running.end());
}

}  // namespace rlsim
