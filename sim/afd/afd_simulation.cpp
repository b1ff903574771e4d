// The AFD decode instance on SimGrid (see afd_simulation.h).
#include "sim/afd/afd_simulation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <simgrid/s4u.hpp>

#include "models/arch_params.h"
#include "models/cost/cost_model_registry.h"
#include "models/cost/roofline.h"
#include "sim/afd/afd_plan.h"
#include "sim/platform/platform.h"
#include "sim/scenario/memory_check.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

/// The hosts of one side and their timeline tracks (one compute and one transfer track per GPU).
struct SideHosts {
  std::vector<sg4::Host*> hosts;
  std::vector<int> compute_tracks;
  std::vector<int> transfer_tracks;
};

SideHosts make_side(const PoolPlatform& pool, const PoolSpec& spec, const std::vector<int>& gpus,
                    const std::string& role, Timeline& timeline) {
  SideHosts side;
  for (int index : gpus) {
    sg4::Host* host = pool.gpus[static_cast<size_t>(index)];
    side.hosts.push_back(host);
    side.compute_tracks.push_back(
        timeline.add_track(Track{host->get_name(), role, true, spec.card.usd_per_hour}));
  }
  for (sg4::Host* host : side.hosts) {
    side.transfer_tracks.push_back(timeline.add_track(Track{host->get_name() + " nic", role, false, 0.0}));
  }
  return side;
}

uint64_t wire_bytes(double bytes) { return static_cast<uint64_t>(std::max(1.0, std::round(bytes))); }

/// Links, latency and bandwidth of the route between two hosts, looked up once per pair.
class RouteBook {
 public:
  struct Route {
    std::vector<sg4::Link*> links;
    double latency_s = 0.0;
  };
  const Route& route(sg4::Host* from, sg4::Host* to) {
    auto [it, inserted] = routes_.try_emplace({from, to});
    if (inserted) from->route_to(to, it->second.links, &it->second.latency_s);
    return it->second;
  }

 private:
  std::map<std::pair<sg4::Host*, sg4::Host*>, Route> routes_;
};

/// One message between two GPUs.
struct Flow {
  sg4::Host* from = nullptr;
  sg4::Host* to = nullptr;
  double bytes = 0.0;
};

/// The messages of a dispatch (attention → FFN) or a combine (back).
std::vector<Flow> transfer_flows(const std::vector<AfdTransfer>& transfers, const SideHosts& attention,
                                 const SideHosts& ffn, bool to_ffn) {
  std::vector<Flow> flows;
  flows.reserve(transfers.size());
  for (const AfdTransfer& t : transfers) {
    sg4::Host* a = attention.hosts[static_cast<size_t>(t.attention)];
    sg4::Host* f = ffn.hosts[static_cast<size_t>(t.ffn)];
    flows.push_back(to_ffn ? Flow{a, f, t.bytes} : Flow{f, a, t.bytes});
  }
  return flows;
}

/// The all-gather or reduce-scatter of every expert group of `group_gpus` FFN GPUs at once, of a
/// `bytes` buffer per group, as a ring: each GPU sends (t − 1)/t of the buffer to the next GPU of
/// its group over the node's scale-up ports. One message per GPU, so the ring's latency is paid
/// once, not t − 1 times; the port load, (t − 1)/t of the buffer each way, is a ring's or NVLS's.
std::vector<Flow> group_ring_flows(const SideHosts& ffn, int group_gpus, double bytes) {
  const size_t t = static_cast<size_t>(group_gpus);
  const double share = bytes * static_cast<double>(t - 1) / static_cast<double>(t);
  std::vector<Flow> flows;
  flows.reserve(ffn.hosts.size());
  for (size_t g = 0; g < ffn.hosts.size(); ++g) {
    const size_t first = g / t * t;
    flows.push_back({ffn.hosts[g], ffn.hosts[first + (g - first + 1) % t], share});
  }
  return flows;
}

/// Seconds a set of messages takes when nothing else uses the network: the busiest link's bytes
/// over its bandwidth (non-blocking fabrics never limit) plus the longest route latency.
double lone_seconds(const std::vector<Flow>& flows, RouteBook& routes) {
  std::map<sg4::Link*, double> load;
  double latency = 0.0;
  for (const Flow& f : flows) {
    const auto& route = routes.route(f.from, f.to);
    latency = std::max(latency, route.latency_s);
    for (sg4::Link* link : route.links) load[link] += f.bytes;
  }
  double busiest = 0.0;
  for (const auto& [link, bytes] : load) {
    if (non_blocking(link)) continue;
    busiest = std::max(busiest, bytes / link->get_bandwidth());
  }
  return latency + busiest;
}

/// The running instance: micro-batch actors share the two sides through FIFO locks.
class AfdInstance {
 public:
  AfdInstance(const AfdPlan& plan, int iterations, SideHosts attention, SideHosts ffn, Timeline& timeline)
      : plan_(plan),
        iterations_(iterations),
        attention_(std::move(attention)),
        ffn_(std::move(ffn)),
        timeline_(timeline),
        attention_lock_(sg4::Mutex::create()),
        ffn_lock_(sg4::Mutex::create()),
        iteration_end_(static_cast<size_t>(plan.micro_batches()),
                       std::vector<double>(static_cast<size_t>(iterations))) {}

  void run_micro_batch(int j) {
    for (int it = 0; it < iterations_; ++it) {
      for (const AfdLayerPlan& layer : plan_.layers) {
        attention_busy_ += compute(attention_lock_, attention_, layer.attention_s[static_cast<size_t>(j)],
                                   GpuState::busy(Phase::attention), it);
        transfer_s_ += transfer(layer.dispatch[static_cast<size_t>(j)], true,
                                GpuState::transfer(Transfer::dispatch), it);
        const bool grouped = !layer.group_gather_bytes.empty();
        if (grouped) {
          group_collective_s_ += group_collective(layer.group_gather_bytes[static_cast<size_t>(j)],
                                                  GpuState::transfer(Transfer::all_gather), it);
        }
        const std::vector<double> ffn_seconds(ffn_.hosts.size(), layer.ffn_s[static_cast<size_t>(j)]);
        ffn_busy_ += compute(ffn_lock_, ffn_, ffn_seconds, GpuState::busy(Phase::ffn), it);
        if (grouped) {
          group_collective_s_ += group_collective(layer.group_scatter_bytes[static_cast<size_t>(j)],
                                                  GpuState::transfer(Transfer::reduce_scatter), it);
        }
        transfer_s_ +=
            transfer(layer.combine[static_cast<size_t>(j)], false, GpuState::transfer(Transfer::combine), it);
      }
      iteration_end_[static_cast<size_t>(j)][static_cast<size_t>(it)] = sg4::Engine::get_clock();
    }
  }

  double attention_busy_s() const { return attention_busy_; }
  double ffn_busy_s() const { return ffn_busy_; }
  double transfer_s() const { return transfer_s_; }
  double group_collective_s() const { return group_collective_s_; }
  long activities() const { return activities_; }
  const std::vector<std::vector<double>>& iteration_end() const { return iteration_end_; }

 private:
  /// One exec per GPU of `side` once the side is free; returns the stage's duration (slowest GPU).
  double compute(const sg4::MutexPtr& lock, const SideHosts& side, const std::vector<double>& seconds,
                 GpuState state, int it) {
    lock->lock();
    const double start = sg4::Engine::get_clock();
    std::vector<sg4::ExecPtr> execs(seconds.size());
    for (size_t g = 0; g < seconds.size(); ++g) {
      if (seconds[g] <= 0.0) continue;
      // Host::exec_async runs on the calling actor's host in SimGrid 3.32: set the host explicitly.
      execs[g] = sg4::this_actor::exec_init(seconds[g]);
      execs[g]->set_host(side.hosts[g]);
      execs[g]->start();
    }
    for (auto& exec : execs) {
      if (exec) exec->wait();
    }
    const double end = sg4::Engine::get_clock();
    lock->unlock();
    for (size_t g = 0; g < execs.size(); ++g) {
      if (!execs[g]) continue;
      ++activities_;
      timeline_.record(side.compute_tracks[g], state, start, execs[g]->get_finish_time(), it + 1);
    }
    return end - start;
  }

  /// Sends `flows` at once and waits for all of them.
  std::vector<sg4::CommPtr> send_all(const std::vector<Flow>& flows) {
    std::vector<sg4::CommPtr> comms;
    comms.reserve(flows.size());
    for (const Flow& f : flows) comms.push_back(sg4::Comm::sendto_async(f.from, f.to, wire_bytes(f.bytes)));
    sg4::Comm::wait_all(comms);
    activities_ += static_cast<long>(comms.size());
    return comms;
  }

  /// Every expert group's all-gather or reduce-scatter of a `bytes` buffer (group_ring_flows);
  /// returns its wall time. Each FFN GPU's transfer track shows its own message.
  double group_collective(double bytes, GpuState state, int it) {
    const double start = sg4::Engine::get_clock();
    const auto comms = send_all(group_ring_flows(ffn_, plan_.ffn_tp, bytes));
    for (size_t g = 0; g < comms.size(); ++g)
      timeline_.record(ffn_.transfer_tracks[g], state, start, comms[g]->get_finish_time(), it + 1);
    return sg4::Engine::get_clock() - start;
  }

  /// The messages of one dispatch (to the FFN) or combine (back); returns its wall time.
  double transfer(const std::vector<AfdTransfer>& transfers, bool to_ffn, GpuState state, int it) {
    const double start = sg4::Engine::get_clock();
    const auto comms = send_all(transfer_flows(transfers, attention_, ffn_, to_ffn));
    // Each GPU's transfer track shows its messages from the start to its last one's end.
    std::map<int, double> attention_end, ffn_end;
    for (size_t c = 0; c < comms.size(); ++c) {
      const double done = comms[c]->get_finish_time();
      double& a = attention_end[transfers[c].attention];
      double& f = ffn_end[transfers[c].ffn];
      a = std::max(a, done);
      f = std::max(f, done);
    }
    for (const auto& [g, end] : attention_end)
      timeline_.record(attention_.transfer_tracks[static_cast<size_t>(g)], state, start, end, it + 1);
    for (const auto& [g, end] : ffn_end)
      timeline_.record(ffn_.transfer_tracks[static_cast<size_t>(g)], state, start, end, it + 1);
    return sg4::Engine::get_clock() - start;
  }

  const AfdPlan& plan_;
  int iterations_;
  SideHosts attention_, ffn_;
  Timeline& timeline_;
  sg4::MutexPtr attention_lock_, ffn_lock_;
  std::vector<std::vector<double>> iteration_end_;  ///< [micro-batch][iteration]
  double attention_busy_ = 0.0, ffn_busy_ = 0.0, transfer_s_ = 0.0, group_collective_s_ = 0.0;
  long activities_ = 0;
};

/// The ping-pong model's inputs from the plan: mean stage times per micro-batch and layer, the
/// transfer as if alone on the network (a hop to the FFN includes the expert groups' all-gather, the
/// hop back their reduce-scatter).
PingPongStages analytic_stages(const AfdPlan& plan, const SideHosts& attention, const SideHosts& ffn,
                               RouteBook& routes) {
  PingPongStages s;
  s.micro_batches = plan.micro_batches();
  s.layers = static_cast<int>(plan.layers.size());
  double attention_sum = 0.0, ffn_sum = 0.0, transfer_sum = 0.0;
  for (const AfdLayerPlan& layer : plan.layers) {
    for (int j = 0; j < s.micro_batches; ++j) {
      const auto& a = layer.attention_s[static_cast<size_t>(j)];
      attention_sum += *std::max_element(a.begin(), a.end());
      ffn_sum += layer.ffn_s[static_cast<size_t>(j)];
      transfer_sum +=
          lone_seconds(transfer_flows(layer.dispatch[static_cast<size_t>(j)], attention, ffn, true), routes) +
          lone_seconds(transfer_flows(layer.combine[static_cast<size_t>(j)], attention, ffn, false), routes);
      if (!layer.group_gather_bytes.empty()) {
        transfer_sum +=
            lone_seconds(group_ring_flows(ffn, plan.ffn_tp, layer.group_gather_bytes[static_cast<size_t>(j)]),
                         routes) +
            lone_seconds(
                group_ring_flows(ffn, plan.ffn_tp, layer.group_scatter_bytes[static_cast<size_t>(j)]),
                routes);
      }
    }
  }
  const double slots = static_cast<double>(s.micro_batches) * s.layers;
  s.attention_s = attention_sum / slots;
  s.ffn_s = ffn_sum / slots;
  s.transfer_s = transfer_sum / (2.0 * slots);
  return s;
}

/// Busiest link over the run: bytes it carried (both directions share it) / (bandwidth × time).
void link_utilization(const AfdPlan& plan, int iterations, const SideHosts& attention, const SideHosts& ffn,
                      RouteBook& routes, double sim_time_s, AfdMetrics& m) {
  std::map<sg4::Link*, double> bytes;
  auto carry = [&](const std::vector<Flow>& flows) {
    for (const Flow& f : flows) {
      for (sg4::Link* link : routes.route(f.from, f.to).links) bytes[link] += f.bytes * iterations;
    }
  };
  for (const AfdLayerPlan& layer : plan.layers) {
    for (const auto& transfers : layer.dispatch) carry(transfer_flows(transfers, attention, ffn, true));
    for (const auto& transfers : layer.combine) carry(transfer_flows(transfers, attention, ffn, false));
    for (double b : layer.group_gather_bytes) carry(group_ring_flows(ffn, plan.ffn_tp, b));
    for (double b : layer.group_scatter_bytes) carry(group_ring_flows(ffn, plan.ffn_tp, b));
  }
  for (const auto& [link, carried] : bytes) {
    if (non_blocking(link)) continue;
    const double utilization = carried / (link->get_bandwidth() * sim_time_s);
    if (utilization > m.max_link_utilization ||
        (utilization == m.max_link_utilization && link->get_name() < m.busiest_link)) {
      m.max_link_utilization = utilization;
      m.busiest_link = link->get_name();
    }
  }
}

void fill_metrics(const AfdScenario& scenario, const AfdPlan& plan, const AfdInstance& instance,
                  AfdMetrics& m) {
  const AfdDeploymentSpec& d = scenario.afd;
  const PoolSpec& attention_pool = *scenario.cluster.pool(d.attention_pool);
  const PoolSpec& ffn_pool = *scenario.cluster.pool(d.ffn_pool);
  const auto& ends = instance.iteration_end();
  double first = 0.0, steady = 0.0, last = 0.0;
  for (const auto& end : ends) {
    first = std::max(first, end.front());
    last = std::max(last, end.back());
    if (end.size() >= 2) steady += end[end.size() - 1] - end[end.size() - 2];
  }
  m.batch_latency_s = first;
  m.tpot_s = d.iterations >= 2 ? steady / static_cast<double>(ends.size()) : first;
  const double gpus = d.attention_gpus + d.ffn_gpus;
  m.tokens_per_s = static_cast<double>(d.batch) / m.tpot_s;
  m.tokens_per_s_per_gpu = m.tokens_per_s / gpus;
  const double layer_slots = static_cast<double>(d.iterations) * scenario.model.layers;
  m.attention_s_per_layer = instance.attention_busy_s() / layer_slots;
  m.transfer_s_per_layer = instance.transfer_s() / layer_slots;
  m.group_collective_s_per_layer = instance.group_collective_s() / layer_slots;
  m.ffn_s_per_layer = instance.ffn_busy_s() / layer_slots;
  m.attention_layer_s = afd_attention_layer_seconds(plan);
  m.attention_busy_fraction = instance.attention_busy_s() / last;
  m.ffn_busy_fraction = instance.ffn_busy_s() / last;
  m.ffn_utilization = plan.ffn_flops_per_iteration /
                      (d.ffn_gpus * compute_peak(ffn_pool.card, d.precisions.weights) * m.tpot_s);
  m.usd_per_hour =
      d.attention_gpus * attention_pool.card.usd_per_hour + d.ffn_gpus * ffn_pool.card.usd_per_hour;
  m.usd_per_1m_tokens = m.usd_per_hour / 3600.0 / m.tokens_per_s * 1e6;
  m.meets_target = m.tpot_s <= d.target_tpot_s;
  int64_t most_sequences = 0;
  for (size_t i = 0; i < plan.attention_gpus.size(); ++i) {
    int64_t held = 0;
    for (const auto& per_gpu : plan.sequences) held += per_gpu[i];
    most_sequences = std::max(most_sequences, held);
  }
  // The memory model the load-time check uses (models/memory/), reserve included.
  m.attention_memory_fraction = afd_deployment_memory(scenario).used_fraction(
      static_cast<double>(d.context) * static_cast<double>(most_sequences));
  m.ffn_memory_fraction = afd_ffn_memory_fraction(scenario.model, ffn_pool.card, d.ffn_gpus, d.ffn_tp,
                                                  d.precisions.weights, d.activation_memory_fraction);
  // A point whose memory does not fit cannot meet any target (the loader refuses it anyway).
  m.meets_target = m.meets_target && m.attention_memory_fraction <= 1.0 && m.ffn_memory_fraction <= 1.0;
  m.activities = instance.activities();
}

}  // namespace

AfdResult simulate_afd(const AfdScenario& scenario, const SimulationOptions& options) {
  const auto cost = make_cost_model(scenario.cost_model, scenario.profile);
  const AfdPlan plan = make_afd_plan(scenario, *cost);

  const auto engine = make_engine(options.simgrid_args);
  const Topology topology(scenario.cluster, ServiceZones::optional);
  const Platform platform = build_platform(scenario.cluster, topology);

  AfdResult result;
  const AfdDeploymentSpec& d = scenario.afd;
  SideHosts attention = make_side(platform.pool(d.attention_pool), *scenario.cluster.pool(d.attention_pool),
                                  plan.attention_gpus, "attention", result.timeline);
  SideHosts ffn = make_side(platform.pool(d.ffn_pool), *scenario.cluster.pool(d.ffn_pool), plan.ffn_gpus,
                            "ffn", result.timeline);
  RouteBook routes;
  result.metrics.analytic_stages = analytic_stages(plan, attention, ffn, routes);
  result.metrics.analytic = ping_pong_estimate(result.metrics.analytic_stages);

  AfdInstance instance(plan, d.iterations, attention, ffn, result.timeline);
  for (int j = 0; j < plan.micro_batches(); ++j) {
    sg4::Actor::create("micro-batch-" + std::to_string(j), attention.hosts.front(),
                       [&instance, j]() { instance.run_micro_batch(j); });
  }
  run_engine(*engine);

  fill_metrics(scenario, plan, instance, result.metrics);
  link_utilization(plan, d.iterations, attention, ffn, routes, engine->get_clock(), result.metrics);
  return result;
}

}  // namespace rlsim
