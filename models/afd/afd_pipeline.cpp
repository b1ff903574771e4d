// The MegaScale-Infer ping-pong estimate (see afd_pipeline.h).
#include "models/afd/afd_pipeline.h"

#include <algorithm>
#include <cassert>

namespace rlsim {

PingPongEstimate ping_pong_estimate(const PingPongStages& s) {
  assert(s.micro_batches >= 1 && s.layers >= 1 && s.attention_s >= 0.0 && s.ffn_s >= 0.0 &&
         s.transfer_s >= 0.0 &&
         "a ping-pong pipeline needs micro-batches, layers and non-negative stage times");
  PingPongEstimate e;
  const double m = s.micro_batches, layers = s.layers;
  e.slower_stage_s = std::max(s.attention_s, s.ffn_s);
  e.round_trip_s = s.attention_s + s.ffn_s + 2.0 * s.transfer_s;
  e.min_micro_batches = e.slower_stage_s > 0.0 ? 2.0 * (1.0 + s.transfer_s / e.slower_stage_s) : 1.0;
  e.pipeline_full = m >= e.min_micro_batches;
  const double cycle = std::max(m * e.slower_stage_s, e.round_trip_s);
  e.iteration_s = e.round_trip_s + (layers - 1.0) * cycle + (m - 1.0) * e.slower_stage_s;
  e.stage_utilisation = e.iteration_s > 0.0 ? m * layers * e.slower_stage_s / e.iteration_s : 0.0;
  return e;
}

}  // namespace rlsim
