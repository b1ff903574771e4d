// Micro-batches and stage-to-stage sends of a pipeline-parallel replica (pipeline_parallel.h).
#include "models/timing/pipeline_parallel.h"

#include <algorithm>
#include <cassert>

namespace rlsim {

ForwardBatch heaviest_micro_batch(const ForwardBatch& batch, int pp) {
  assert(pp >= 1 && "a pipeline has at least one stage");
  if (pp == 1) return batch;
  const auto share = [pp](int64_t n) { return (n + pp - 1) / pp; };
  ForwardBatch micro;
  micro.decode_sequences = share(batch.decode_sequences);
  micro.decode_mean_context = batch.decode_mean_context;
  micro.chunks = batch.chunks;
  std::stable_sort(micro.chunks.begin(), micro.chunks.end(),
                   [](const PrefillChunk& a, const PrefillChunk& b) { return a.tokens > b.tokens; });
  micro.chunks.resize(static_cast<size_t>(share(static_cast<int64_t>(batch.chunks.size()))));
  return micro;
}

int64_t filled_micro_batches(const ForwardBatch& batch, int pp) {
  assert(pp >= 1 && "a pipeline has at least one stage");
  return std::min<int64_t>(pp, std::max<int64_t>(1, batch.sequences()));
}

double largest_stage_share(int layers, int pp) {
  return static_cast<double>((layers + pp - 1) / pp) / static_cast<double>(layers);
}

double round_seconds(const IterationTerms& pass, double sends_s, const ForwardBatch& batch, int layers,
                     int pp) {
  const double trip_s = pass.total_s() + sends_s;
  if (pp == 1) return trip_s;
  const auto filled = static_cast<double>(filled_micro_batches(batch, pp));
  const double pace_s = filled * std::max(pass.gpu_s() * largest_stage_share(layers, pp), pass.cpu_s);
  return std::max(trip_s, pace_s);
}

double stage_busy_share(const ForwardBatch& batch, int pp) {
  return static_cast<double>(filled_micro_batches(batch, pp)) / pp;
}

double stage_activation_bytes_per_token(const ModelArch& arch) { return 2.0 * arch.hidden_size; }

double pipeline_sends_seconds(const ModelArch& arch, double tokens, int pp, const LinkSpec& link) {
  if (pp <= 1) return 0.0;
  assert(link.bandwidth_bytes_per_s > 0.0 && "a stage-to-stage link carries data");
  const double hidden_send_s =
      link.latency_s + tokens * stage_activation_bytes_per_token(arch) / link.bandwidth_bytes_per_s;
  return (pp - 1) * hidden_send_s + link.latency_s;
}

}  // namespace rlsim
