// The analytical ping-pong pipeline of attention-FFN disaggregation, after MegaScale-Infer
// (ByteDance, arXiv 2504.02263 §4.2): a decode batch is split into m micro-batches that take turns
// on the attention GPUs and the FFN GPUs, each hop between them a transfer of T_c. With the slower
// stage T_f = max(T_a, T_e) the pipeline is full when m ≥ 2(1 + T_c/T_f), and one decode
// iteration of the whole batch through L layers then takes
//   (T_a + T_e + 2T_c) + T_f (mL − 1).
// When m is too small to hide the round trip r = T_a + T_e + 2T_c, each layer waits for it:
//   r + (L − 1) max(m T_f, r) + (m − 1) T_f,
// which equals the formula above whenever m T_f ≥ r. The model treats transfers as independent
// delays (an uncongested network); the layer-level simulation in sim/afd/ shares real links and
// shows where this stops holding. All times in seconds, per micro-batch per layer.
#pragma once

namespace rlsim {

struct PingPongStages {
  double attention_s = 0.0;  ///< T_a: one micro-batch through one layer's attention
  double ffn_s = 0.0;        ///< T_e: one micro-batch through one layer's FFN (experts)
  double transfer_s = 0.0;   ///< T_c: one hop between attention and FFN (dispatch or combine)
  int micro_batches = 1;     ///< m ≥ 1
  int layers = 1;            ///< L ≥ 1
};

struct PingPongEstimate {
  double slower_stage_s = 0.0;     ///< T_f = max(T_a, T_e)
  double round_trip_s = 0.0;       ///< r = T_a + T_e + 2T_c
  double min_micro_batches = 0.0;  ///< 2(1 + T_c / T_f): fewer leave the slower stage idle
  bool pipeline_full = false;      ///< m ≥ min_micro_batches
  double iteration_s = 0.0;        ///< whole-batch latency of one decode iteration (TPOT)
  double stage_utilisation = 0.0;  ///< busy share of the slower stage: m L T_f / iteration_s
};

/// The ping-pong estimate of `stages`. Requires m ≥ 1, L ≥ 1 and non-negative times.
PingPongEstimate ping_pong_estimate(const PingPongStages& stages);

}  // namespace rlsim
