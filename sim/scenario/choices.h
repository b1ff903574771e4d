// The closed choices of a scenario file, as named enums (models/named_enum.h): the loader reads
// each with YamlReader::choice_or<E>, which lists the names in errors and writes the chosen one to
// resolved.yaml, so the engine compares enums and no spelling is repeated. The lists keep the order
// in which errors have always listed the valid values.
#pragma once

#include "models/named_enum.h"

namespace rlsim {

/// `kind` as the scenario loaders of sim/ know it: an RL post-training scenario, a single AFD
/// decode instance (docs/afd.md), or a stream of requests against an inference deployment. The
/// CLI picks the kind from its own registry (tools/kinds/).
#define RLSIM_SCENARIO_KINDS(X) X(rl) X(afd) X(serve)
RLSIM_NAMED_ENUM(ScenarioFileKind, RLSIM_SCENARIO_KINDS)

/// `rollout.preemption`: what an inference instance does with a sequence it preempts when its KV
/// cache runs out: drop the KV and prefill it again later, or swap it out to host memory and back.
#define RLSIM_KV_OVERFLOWS(X) X(recompute) X(swap)
RLSIM_NAMED_ENUM(KvOverflow, RLSIM_KV_OVERFLOWS)

/// `labels.preemption`: what an instance does with its in-flight sequences when it is taken away
/// from rollout (label scheduling): keep their KV in host memory and restore it on resume, drop the
/// KV and re-prefill on resume, or hand them to other instances (re-prefilled there).
#define RLSIM_PREEMPTIONS(X) X(save_kv) X(recompute) X(migrate)
RLSIM_NAMED_ENUM(Preemption, RLSIM_PREEMPTIONS)

/// `labels.launch`: how label scheduling feeds rollout (see LabelsSpec::launch).
#define RLSIM_LAUNCH_MODES(X) X(step) X(rolling)
RLSIM_NAMED_ENUM(LaunchMode, RLSIM_LAUNCH_MODES)

/// `training.algorithm`: GRPO, or PPO (which also runs and trains a critic).
#define RLSIM_RL_ALGORITHMS(X) X(grpo) X(ppo)
RLSIM_NAMED_ENUM(RlAlgorithm, RLSIM_RL_ALGORITHMS)

/// `weight_sync.method`: a binomial-tree broadcast, or a pipelined ring (sim/engine/weight_sync.h).
#define RLSIM_WEIGHT_SYNC_METHODS(X) X(broadcast) X(ring)
RLSIM_NAMED_ENUM(WeightSyncMethod, RLSIM_WEIGHT_SYNC_METHODS)

/// `faults.recovery`: after a failure, redo the interrupted step, or go back to the last checkpoint.
#define RLSIM_FAULT_RECOVERIES(X) X(restart_step) X(checkpoint)
RLSIM_NAMED_ENUM(FaultRecovery, RLSIM_FAULT_RECOVERIES)

}  // namespace rlsim
