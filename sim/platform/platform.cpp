// Building the SimGrid zones, hosts, links and routes of a cluster.
#include "sim/platform/platform.h"

#include <signal.h>
#include <xbt/log.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <limits>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <stdexcept>
#include <string>

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

// A non-blocking fabric is a shared link too wide to ever limit a transfer: every flow crossing it
// also crosses a NIC of the pool, so the flows' rates sum to at most the pool's NIC bandwidth, and
// the fabric is given twice that (at least 1e15 B/s). A SHARED link, not a FATPIPE: SimGrid's
// max-min solver settles a fat pipe by rescanning every flow crossing it each time one is settled,
// quadratic in the flows a pool carries; a constraint that never binds costs nothing of the kind.
constexpr double kNonBlockingMinBandwidth = 1e15;
constexpr const char* kNonBlockingProperty = "rlsim-non-blocking";

sg4::Link* make_link(sg4::NetZone* zone, const std::string& name, const LinkParams& params) {
  return zone->create_link(name, params.bandwidth_bytes_per_s)->set_latency(params.latency_s);
}

struct ZoneHandle {
  sg4::NetZone* zone = nullptr;
  simgrid::kernel::routing::NetPoint* gateway = nullptr;
};

// Zones are built apart from the platform tree and attached under the root once all are built
// (build_platform). SimGrid 3.32 checks every new host's and link's name against the whole tree,
// zone by zone, and seals a zone's hosts by walking every host of the tree: building thousands of
// node zones in place made each later name and each node's seal cost a walk over all the earlier
// ones, quadratic in nodes (a fifth of one step at 65,536 GPUs). A detached zone gets the root's
// models so it can hold hosts and links; a node zone, sealed while detached, seals its own hosts
// (the others are sealed with the root, attached); names stay unique by construction: each
// carries its pool's (or service's) name, and pool names are checked by the scenario loader.
sg4::NetZone* detached(sg4::NetZone* zone, const sg4::NetZone* root) {
  auto* impl = zone->get_impl();
  const auto* models = root->get_impl();
  impl->set_network_model(models->get_network_model());
  impl->set_cpu_pm_model(models->get_cpu_pm_model());
  impl->set_cpu_vm_model(models->get_cpu_vm_model());
  impl->set_disk_model(models->get_disk_model());
  impl->set_host_model(models->get_host_model());
  return zone;
}

// One node: GPUs with a scale-up port and a NIC each, and a gateway router behind the NICs.
ZoneHandle build_node(sg4::NetZone* pool_zone, const PoolSpec& pool, int node, PoolPlatform& out) {
  const std::string prefix = pool.name + "-node" + std::to_string(node);
  auto* zone = sg4::create_full_zone(prefix);
  zone->set_parent(pool_zone);
  auto* gateway = zone->create_router(prefix + "-gw");
  std::vector<sg4::Host*> gpus;
  std::vector<sg4::Link*> ports, nics;
  for (int local = 0; local < pool.gpus_per_node; ++local) {
    const std::string gpu_name = prefix + "-gpu" + std::to_string(local);
    gpus.push_back(zone->create_host(gpu_name, 1.0));
    ports.push_back(make_link(zone, gpu_name + "-scaleup", pool.intra_node));
    nics.push_back(make_link(zone, gpu_name + "-nic", pool.nic));
  }
  for (int i = 0; i < pool.gpus_per_node; ++i) {
    zone->add_route(gpus[i]->get_netpoint(), gateway, nullptr, nullptr, {sg4::LinkInRoute(nics[i])});
    for (int j = i + 1; j < pool.gpus_per_node; ++j) {
      zone->add_route(gpus[i]->get_netpoint(), gpus[j]->get_netpoint(), nullptr, nullptr,
                      {sg4::LinkInRoute(ports[i]), sg4::LinkInRoute(ports[j])});
    }
  }
  for (auto* gpu : gpus) gpu->seal();  // the zone, detached, cannot find its hosts to seal them
  zone->seal();
  out.gpus.insert(out.gpus.end(), gpus.begin(), gpus.end());
  return {zone, gateway};
}

ZoneHandle build_pool(sg4::NetZone* root, const PoolSpec& pool, const LinkParams& fabric, PoolPlatform& out) {
  // A star: each node (and the spine) reaches the centre over the fabric link, and SimGrid counts a
  // link once per route, so node to node and node to spine cross the fabric once. Routes are one per
  // node (linear), where a full zone would hold one per pair of nodes.
  auto* zone = detached(sg4::create_star_zone(pool.name), root);
  // The pool's switch sits in a zone of its own: SimGrid routes join zones to zones, not to routers.
  auto* spine = sg4::create_full_zone(pool.name + "-spine");
  spine->set_parent(zone);
  auto* gateway = spine->create_router(pool.name + "-switch");
  spine->seal();
  const bool non_blocking = fabric.bandwidth_bytes_per_s <= 0.0;
  const double nic_sum = pool.nic.bandwidth_bytes_per_s * pool.gpus_per_node * pool.nodes;
  auto* link = zone->create_link(pool.name + "-fabric",
                                 non_blocking ? std::max(kNonBlockingMinBandwidth, 2.0 * nic_sum)
                                              : fabric.bandwidth_bytes_per_s)
                   ->set_latency(fabric.latency_s);
  if (non_blocking) link->set_property(kNonBlockingProperty, "1");
  out.name = pool.name;
  out.gpus_per_node = pool.gpus_per_node;
  zone->add_route(spine->get_netpoint(), nullptr, gateway, nullptr, {sg4::LinkInRoute(link)}, true);
  for (int node = 0; node < pool.nodes; ++node) {
    const ZoneHandle handle = build_node(zone, pool, node, out);
    zone->add_route(handle.zone->get_netpoint(), nullptr, handle.gateway, nullptr, {sg4::LinkInRoute(link)},
                    true);
  }
  return {zone, gateway};  // detached and unsealed: build_platform attaches it
}

// A zone of single-NIC hosts (agent CPU hosts or the data-plane host) behind a gateway router: a
// star whose routes cross the source's NIC then the destination's (the gateway has none), one route
// per host.
ZoneHandle build_host_zone(sg4::NetZone* root, const std::string& name, int hosts, int cores,
                           const LinkParams& nic, std::vector<sg4::Host*>& out) {
  auto* zone = detached(sg4::create_star_zone(name), root);
  auto* gateway = zone->create_router(name + "-gw");
  for (int i = 0; i < hosts; ++i) {
    const std::string host_name = hosts == 1 ? name : name + std::to_string(i);
    auto* host = zone->create_host(host_name, 1.0);
    host->set_core_count(cores);
    out.push_back(host);
    auto* host_nic = make_link(zone, host_name + "-nic", nic);
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(host_nic)}, true);
  }
  return {zone, gateway};  // detached and unsealed: build_platform attaches it
}

}  // namespace

const PoolPlatform& Platform::pool(const std::string& name) const {
  auto it = std::find_if(pools.begin(), pools.end(), [&](const PoolPlatform& p) { return p.name == name; });
  assert(it != pools.end() && "pool names are checked by the scenario loader");
  return *it;
}

std::unique_ptr<sg4::Engine> make_engine(const std::vector<std::string>& simgrid_args) {
  std::vector<std::string> args{"rlsim"};
  // The context factory is chosen while the engine is constructed: it must come as an argument.
  if (const char* factory = std::getenv("RLSIM_SIMGRID_CONTEXTS"); factory && *factory) {
    args.push_back(std::string("--cfg=contexts/factory:") + factory);
  }
  args.insert(args.end(), simgrid_args.begin(), simgrid_args.end());
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  int argc = static_cast<int>(argv.size());
  xbt_log_control_set("root.thres:critical");
  // SimGrid installs a Ctrl-C handler that ends the process with exit(1), as an internal error
  // would: the process's own handling of SIGINT (by default, to die of it) is put back.
  struct sigaction interrupt_before {};
  ::sigaction(SIGINT, nullptr, &interrupt_before);
  auto engine = std::make_unique<sg4::Engine>(&argc, argv.data());  // copies the arguments it keeps
  ::sigaction(SIGINT, &interrupt_before, nullptr);
  configure_engine(*engine);
  return engine;
}

void run_engine(sg4::Engine& engine) {
  static bool deadlocked = false;  // one engine per process: one callback
  static const bool watching = [] {
    sg4::Engine::on_deadlock_cb([] { deadlocked = true; });
    return true;
  }();
  (void)watching;
  deadlocked = false;
  engine.run();
  if (deadlocked) {
    throw std::runtime_error("the simulation deadlocked at " + std::to_string(engine.get_clock()) +
                             " s of simulated time: some actors wait for messages that never come "
                             "(an rlsim defect: please report it with the scenario)");
  }
}

void configure_engine(sg4::Engine& engine) {
  xbt_log_control_set("xbt_cfg.thres:warning");  // these settings are ours, not news to the user
  engine.set_config("network/model:CM02");
  engine.set_config("network/crosstraffic:0");
  engine.set_config("network/TCP-gamma:0");
  // Small stacks: one actor per concurrent agent trajectory means tens of thousands at scale, and
  // SimGrid zeroes each stack when the actor starts. Our actors are shallow: the whole test suite
  // passes with 8 KiB (and fails with 4 KiB); 32 KiB keeps a margin of 4. The default 8 MiB
  // stacks with guard pages also cost an mmap, mprotect and page-table work each; docs/design.md §3 asks
  // for guard-size 0 past ~30k actors. Thread contexts (the sanitizer builds) keep the default:
  // instrumented frames are larger and thread stacks are only touched as used.
  engine.set_config("contexts/guard-size:0");
  if (const char* factory = std::getenv("RLSIM_SIMGRID_CONTEXTS"); !factory || !*factory) {
    engine.set_config("contexts/stack-size:32");
  }
}

bool non_blocking(const sg4::Link* link) { return link->get_property(kNonBlockingProperty) != nullptr; }

Platform build_platform(const ClusterSpec& cluster, const Topology& topology) {
  Platform platform;
  auto* root = sg4::create_full_zone("cluster");
  std::vector<ZoneHandle> zones;
  for (const auto& pool : cluster.pools) {
    platform.pools.emplace_back();
    zones.push_back(build_pool(root, pool, cluster.fabric, platform.pools.back()));
  }
  zones.push_back(build_host_zone(root, "agents", cluster.agents.hosts, cluster.agents.cores,
                                  cluster.agents.nic, platform.agent_hosts));
  std::vector<sg4::Host*> dataplane;
  zones.push_back(build_host_zone(root, "dataplane", 1, 1, cluster.dataplane.nic, dataplane));
  platform.dataplane = dataplane.front();
  for (const ZoneHandle& built : zones) built.zone->set_parent(root);

  std::vector<sg4::Link*> links;
  for (const auto& link : cluster.links) {
    links.push_back(
        make_link(root, "link-" + link.a + "-" + link.b + "-" + std::to_string(links.size()), link.params));
  }
  for (size_t a = 0; a < zones.size(); ++a) {
    for (size_t b = a + 1; b < zones.size(); ++b) {
      if (topology.route(a, b).empty()) continue;  // an unlinked optional service zone (AFD scenarios)
      std::vector<sg4::LinkInRoute> route;
      for (int index : topology.route(a, b)) route.emplace_back(links[static_cast<size_t>(index)]);
      root->add_route(zones[a].zone->get_netpoint(), zones[b].zone->get_netpoint(), zones[a].gateway,
                      zones[b].gateway, route);
    }
  }
  platform.cluster_links = links;
  root->seal();
  return platform;
}

double expected_transfer_seconds(const ClusterSpec& cluster, const Topology& topology,
                                 const std::string& from_pool, int from_gpu, const std::string& to_pool,
                                 int to_gpu, double bytes) {
  const PoolSpec& from = *cluster.pool(from_pool);
  const PoolSpec& to = *cluster.pool(to_pool);
  std::vector<LinkParams> path;
  const bool same_node = from_pool == to_pool && from_gpu / from.gpus_per_node == to_gpu / to.gpus_per_node;
  if (same_node) {
    path = {from.intra_node, to.intra_node};
  } else {
    const LinkParams fabric{cluster.fabric.bandwidth_bytes_per_s > 0.0
                                ? cluster.fabric.bandwidth_bytes_per_s
                                : std::numeric_limits<double>::infinity(),
                            cluster.fabric.latency_s};
    path.push_back(from.nic);
    path.push_back(fabric);
    if (from_pool != to_pool) {
      for (int index : topology.route(topology.zone_index(from_pool), topology.zone_index(to_pool))) {
        path.push_back(cluster.links[static_cast<size_t>(index)].params);
      }
      path.push_back(fabric);
    }
    path.push_back(to.nic);
  }
  double latency = 0.0, bandwidth = std::numeric_limits<double>::infinity();
  for (const auto& hop : path) {
    latency += hop.latency_s;
    bandwidth = std::min(bandwidth, hop.bandwidth_bytes_per_s);
  }
  return latency + bytes / bandwidth;
}

}  // namespace rlsim
