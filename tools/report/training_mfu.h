// Model FLOPs utilisation of an RL run's training phases, under the names verl logs them
// (update_actor; old_log_prob and ref, the extra forwards; PPO adds values), overall and per pool
// of the GPUs that did the work: the phase's model FLOPs (models/timing/model_flops.h, over the
// tokens the trainer trained on, attention span training.sequence_tokens) over the GPU-seconds the
// phase kept those GPUs busy times their card's dense peak at the training precision. The trainer
// runs a phase in lockstep on all its GPUs, so each does an equal share of the FLOPs; a pool's MFU
// is its share over its own GPU-seconds and peak. update_actor's time holds the forward, backward,
// recomputation, DP exchange and optimizer; PPO's includes the critic's update (and its FLOPs). The
// extra forwards run back to back as one stretch, so old_log_prob and ref have one MFU.
#pragma once

#include <map>
#include <string>

#include "sim/engine/metrics.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct TrainingMfu {
  std::map<std::string, double> by_phase;                        ///< verl phase name -> MFU
  std::map<std::string, std::map<std::string, double>> by_pool;  ///< pool -> verl phase name -> MFU
  double model_flops_per_token_forward = 0.0;                    ///< the convention's forward FLOPs
};

/// Empty maps when nothing was trained.
TrainingMfu training_mfu(const Scenario& scenario, const RunMetrics& metrics);

}  // namespace rlsim
