// AfdScenario: an attention-FFN-disaggregated decode instance as plain structs — the model (a
// catalog row, optionally edited for design sweeps), the cluster, which GPUs run attention and
// which run the experts, the decode batch and its micro-batches, precisions, the TPOT target, and
// the sweep the scenario declares by default. Produced from YAML (`kind: afd`) by afd_reader; the
// AFD engine (sim/afd/) reads only these structs. SI units throughout. The member initialisers are
// the YAML defaults, declared only here (afd_reader reads absent fields from a default struct).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/afd/afd_stages.h"
#include "models/model_arch.h"
#include "models/registry/registry.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct AfdDeploymentSpec {
  std::string attention_pool;
  std::string ffn_pool;
  int attention_gpus = 0;  ///< nA: data-parallel attention GPUs (first GPUs of attention_pool)
  int ffn_gpus = 0;        ///< nF: expert-parallel FFN GPUs (first free GPUs of ffn_pool)
  int ffn_tp = 1;          ///< FFN GPUs per expert group (1: plain EP; t > 1: hybrid EP + TP, each
                           ///< group of t GPUs in one node shards its experts t ways, models/afd)
  int micro_batches = 3;   ///< m: ping-pong micro-batches
  int64_t batch = 0;       ///< sequences decoded together by the instance (all attention GPUs)
  int64_t context = 4096;  ///< tokens in each sequence's KV cache
  AfdPrecisions precisions;
  double target_tpot_s = 0.05;
  /// Card memory kept for activations, workspace, CUDA graphs and the framework (as rollout's).
  double activation_memory_fraction = RolloutSpec{}.activation_memory_fraction;
  int iterations = 2;  ///< decode iterations simulated (the first fills the pipeline)
};

/// One axis of a sweep in the `--param` syntax: `path` and its values ("a,b,c" or "lo:hi:step").
struct SweepAxisSpec {
  std::string path;
  std::string values;
};

struct AfdScenario {
  std::string name;
  std::string file;
  uint64_t seed = 1;
  ModelArch model;
  ClusterSpec cluster;
  AfdDeploymentSpec afd;
  PluginSpec cost_model{"roofline"};  ///< registered cost model (models/cost/cost_model_registry.h)
  std::string profile;                ///< calibrated hardware profile (path) for the "profile" model
  std::vector<SweepAxisSpec> sweep;   ///< the default sweep of `rlsim sweep` (may be empty)
};

}  // namespace rlsim
