// Platform: the SimGrid side of a cluster. Each GPU is a host of speed 1 flop/s, so an Exec's
// amount is the cost model's predicted seconds (one convention everywhere). Zones mirror the
// hardware: root (full routing) ⊃ pool zones ⊃ node zones. Inside a node, GPU↔GPU traffic crosses
// both GPUs' scale-up ports; traffic leaving a node crosses the GPU's own NIC, the pool fabric,
// then the inter-zone links of the Topology's route, then the far side's fabric and NIC.
//
// Network model: CM02 with cross-traffic off and TCP-gamma 0, so a lone transfer of S bytes takes
// exactly Σ latency + S / min bandwidth along its path (LV08, the default, scales latency ×13.01 and
// bandwidth ×0.97, and TCP-gamma caps bandwidth at gamma / 2·latency). Concurrent transfers share
// links max-min fairly. A pool fabric without a bandwidth is non-blocking: a link too wide to limit.
// Pools and host zones are star zones (one route per node), so building a platform is linear in nodes.
#pragma once

#include <memory>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/platform/topology.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct PoolPlatform {
  std::string name;
  int gpus_per_node = 0;
  std::vector<simgrid::s4u::Host*> gpus;  ///< node-major: gpu index = node * gpus_per_node + local
};

struct Platform {
  std::vector<PoolPlatform> pools;
  std::vector<simgrid::s4u::Host*> agent_hosts;
  simgrid::s4u::Host* dataplane = nullptr;
  std::vector<simgrid::s4u::Link*> cluster_links;  ///< one per cluster.links entry, in order

  const PoolPlatform& pool(const std::string& name) const;
};

/// The process's SimGrid engine (one per process), with SimGrid's logging quiet, then
/// `simgrid_args` ("--cfg=…", "--log=…") applied, then configure_engine.
std::unique_ptr<simgrid::s4u::Engine> make_engine(const std::vector<std::string>& simgrid_args);
/// Runs the simulation to its end. SimGrid stopping on a deadlock (actors waiting on each other
/// forever) throws std::runtime_error (exit 1) saying so: such a run has no result to report.
void run_engine(simgrid::s4u::Engine& engine);
/// Network model and actor stack settings (see above); before the first zone is created. The
/// environment variable RLSIM_SIMGRID_CONTEXTS ("thread" under sanitizers) names the actor context
/// factory, which make_engine passes to the engine's constructor.
void configure_engine(simgrid::s4u::Engine& engine);

/// Builds zones, hosts, links and routes for `cluster` and seals them.
Platform build_platform(const ClusterSpec& cluster, const Topology& topology);

/// Whether `link` is a pool's non-blocking fabric (it never limits a transfer).
bool non_blocking(const simgrid::s4u::Link* link);

/// What the YAML says a lone transfer of `bytes` from GPU `from_gpu` of pool `from_pool` to GPU
/// `to_gpu` of pool `to_pool` takes: Σ latency + bytes / min bandwidth along the path.
double expected_transfer_seconds(const ClusterSpec& cluster, const Topology& topology,
                                 const std::string& from_pool, int from_gpu, const std::string& to_pool,
                                 int to_gpu, double bytes);

}  // namespace rlsim
