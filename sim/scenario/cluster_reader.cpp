// The `cluster:` section's schema.
#include "sim/scenario/cluster_reader.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace rlsim {
namespace {

constexpr int64_t kMaxCount = 1'000'000;
const std::vector<std::string> kReservedEndpoints{"agents", "dataplane"};
const std::string kCardDatasheet = "the card's datasheet (rlsim list hardware)";

/// The platform names its zones, hosts and links after the pools ("rollout-node3-gpu5",
/// "rollout-fabric") and the services ("agents0", "dataplane-gw") under one root zone "cluster", and
/// SimGrid refuses a name given twice. A pool name of letters, digits and '_', other than "cluster"
/// and the services' names with a number, can never meet another.
void check_platform_name(YamlReader& r, const std::string& name) {
  const bool simple = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
  if (!simple)
    r.fail("name", "expected a pool name of letters, digits and '_' (rlsim names each GPU '" + name +
                       "-node<k>-gpu<j>' and its links with '-'), found '" + name + "'");
  auto numbered = [&](const std::string& service) {
    return name.size() > service.size() && name.compare(0, service.size(), service) == 0 &&
           std::all_of(name.begin() + static_cast<std::ptrdiff_t>(service.size()), name.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  if (name == "cluster" || numbered("agents") || numbered("dataplane"))
    r.fail("name", "'" + name + "' is a name rlsim gives the platform itself (the root zone 'cluster', " +
                       "agent hosts 'agents0', 'agents1', …); pick another pool name");
}

PoolSpec read_pool(YamlReader& r, const Catalog& catalog, const std::optional<LinkParams>& intra_default,
                   const std::optional<LinkParams>& nic_default) {
  const PoolSpec defaults;
  PoolSpec pool;
  pool.where = r.where();
  pool.name = r.text({"name", "the pool's name, used by rollout.pool, training.pool, links and faults"});
  for (const auto& reserved : kReservedEndpoints) {
    if (pool.name == reserved)
      r.fail("name",
             "'" + reserved + "' is reserved for the cluster's " + reserved + "; pick another pool name");
  }
  check_platform_name(r, pool.name);
  const std::string gpu = r.text({"gpu", "the card in every node of the pool (rlsim list hardware)"});
  pool.card = catalog.card(gpu, r.where("gpu"));
  pool.nodes = static_cast<int>(r.integer({"nodes", "nodes in the pool", "nodes"}, 1, kMaxCount));
  pool.gpus_per_node = static_cast<int>(
      r.integer_or({"gpus_per_node", "GPUs per node, behind one scale-up link (NVLink)", "GPUs"},
                   defaults.gpus_per_node, 1, 64));
  // What this pool's GPUs cost you, when it is not the catalog's price (a contract, a spot market).
  pool.card.usd_per_hour = r.number_or({"usd_per_hour", "the price of one of this pool's GPUs per hour",
                                        "USD/h", "the card's catalog price (rlsim list hardware)"},
                                       pool.card.usd_per_hour, 0.0, 1e4);
  // Scale-up and NIC links default to the card's datasheet bandwidth, unless the cluster or the
  // pool says otherwise.
  const LinkParams card_intra{pool.card.intra_node_bw_bytes_per_s, defaults.intra_node.latency_s};
  const LinkParams card_nic{pool.card.nic_bw_bytes_per_s, defaults.nic.latency_s};
  YamlReader intra = r.map_or_empty({"intra_node", "each GPU's scale-up port (NVLink) in this pool"});
  pool.intra_node = read_link(intra, intra_default.value_or(card_intra), kCardDatasheet);
  YamlReader nic = r.map_or_empty({"nic", "each GPU's scale-out NIC in this pool"});
  pool.nic = read_link(nic, nic_default.value_or(card_nic), kCardDatasheet);
  r.finish();
  return pool;
}

}  // namespace

LinkParams read_link(YamlReader& r, const LinkParams& fallback, const std::string& bandwidth_default) {
  LinkParams link;
  link.bandwidth_bytes_per_s = r.quantity_or({"bandwidth", "the link's bandwidth", "", bandwidth_default},
                                             Quantity::bandwidth, fallback.bandwidth_bytes_per_s);
  link.latency_s = r.quantity_or({"latency", "the link's latency, paid once per transfer"},
                                 Quantity::duration, fallback.latency_s, true);
  r.finish();
  return link;
}

Precision read_precision(YamlReader& r, const Field& field, Precision fallback) {
  std::vector<std::string> names;
  for (Precision p : all_precisions()) names.emplace_back(to_string(p));
  return *parse_precision(r.choice_or(field, names, std::string(to_string(fallback))));
}

ClusterSpec read_cluster(YamlReader& r, const Catalog& catalog) {
  const ClusterSpec defaults;
  const PoolSpec pool_defaults;
  ClusterSpec cluster;
  // Cluster-wide link settings apply to every pool that does not set its own.
  std::optional<LinkParams> intra_default, nic_default;
  const Field intra_field{"intra_node", "every pool's scale-up port per GPU, unless the pool sets its own",
                          "", "each pool's card"};
  const Field nic_field{"nic", "every pool's NIC per GPU, unless the pool sets its own", "",
                        "each pool's card"};
  if (r.has("intra_node")) {
    YamlReader intra = r.map(intra_field);
    intra_default = read_link(intra, pool_defaults.intra_node, kCardDatasheet);
  } else {
    r.describe(intra_field, {"", "mapping", "", "", "", "", {}});
    r.raw("intra_node");
  }
  if (r.has("nic")) {
    YamlReader nic = r.map(nic_field);
    nic_default = read_link(nic, pool_defaults.nic, kCardDatasheet);
  } else {
    r.describe(nic_field, {"", "mapping", "", "", "", "", {}});
    r.raw("nic");
  }
  std::set<std::string> names;
  for (YamlReader& p : r.map_list({"pools", "groups of identical nodes, one card type each"})) {
    PoolSpec pool = read_pool(p, catalog, intra_default, nic_default);
    if (!names.insert(pool.name).second) p.fail("name", "duplicate pool name '" + pool.name + "'");
    cluster.pools.push_back(std::move(pool));
  }
  YamlReader fabric = r.map_or_empty({"fabric", "the network between the nodes of one pool"});
  // A fabric is non-blocking (a fat pipe) unless it is given a bisection bandwidth.
  fabric.describe(
      {"bandwidth", "the pool fabric's bandwidth; non-blocking when not given", "", "non-blocking"},
      field_doc(ParamSpec::quantity_of("bandwidth", Quantity::bandwidth, 0.0, "")));
  if (!fabric.has("bandwidth") || fabric.node()["bandwidth"].as<std::string>("") == "non-blocking") {
    fabric.record("bandwidth", YAML::Node("non-blocking"));
  } else {
    cluster.fabric.bandwidth_bytes_per_s = fabric.quantity("bandwidth", Quantity::bandwidth);
  }
  cluster.fabric.latency_s = fabric.quantity_or({"latency", "node-to-node latency inside a pool"},
                                                Quantity::duration, defaults.fabric.latency_s, true);
  fabric.finish();

  YamlReader agents = r.map_or_empty({"agents", "the CPU hosts that run the agents' tools"});
  cluster.agents.hosts = static_cast<int>(
      agents.integer_or({"hosts", "agent hosts", "hosts"}, defaults.agents.hosts, 1, kMaxCount));
  cluster.agents.cores = static_cast<int>(
      agents.integer_or({"cores", "cores per agent host: tool calls it runs at once", "cores"},
                        defaults.agents.cores, 1, 1 << 20));
  YamlReader agent_nic = agents.map_or_empty({"nic", "each agent host's NIC"});
  cluster.agents.nic = read_link(agent_nic, defaults.agents.nic);
  agents.finish();

  YamlReader dataplane = r.map_or_empty({"dataplane", "the trajectory manager that records every LLM call"});
  const DataPlaneSpec& plane = defaults.dataplane;
  cluster.dataplane.enabled = dataplane.flag_or(
      {"enabled", "route every LLM call and reply through the trajectory manager"}, plane.enabled);
  YamlReader dp_nic = dataplane.map_or_empty({"nic", "the trajectory manager host's NIC"});
  cluster.dataplane.nic = read_link(dp_nic, plane.nic);
  cluster.dataplane.seconds_per_record =
      dataplane.quantity_or({"cost_per_record", "fixed time to record one LLM input or output"},
                            Quantity::duration, plane.seconds_per_record, true);
  cluster.dataplane.bytes_per_s = dataplane.quantity_or(
      {"record_bandwidth", "recording throughput (disk and CPU)"}, Quantity::bandwidth, plane.bytes_per_s);
  cluster.dataplane.ledger = dataplane.flag_or(
      {"ledger", "also write trajectories.jsonl, one line per recorded call (needs enabled: true)"},
      plane.ledger);
  if (cluster.dataplane.ledger && !cluster.dataplane.enabled) {
    dataplane.fail("ledger",
                   "expected dataplane.enabled: true for a ledger (the ledger is what the data plane "
                   "records), found the data plane disabled");
  }
  dataplane.finish();

  std::vector<std::string> endpoints(names.begin(), names.end());
  endpoints.insert(endpoints.end(), kReservedEndpoints.begin(), kReservedEndpoints.end());
  for (YamlReader& l : r.map_list_or_empty(
           {"links",
            "links between pools, `agents` and `dataplane`; together they must connect everything"})) {
    ClusterLinkSpec link;
    const double default_latency_s = link.params.latency_s;
    link.where = l.where();
    auto between = l.text_list({"between", "the link's two endpoints: pool names, agents or dataplane"});
    if (between.size() != 2)
      l.fail("between", "expected two endpoints in 'between', found " + std::to_string(between.size()));
    for (const auto& end : between) {
      if (std::find(endpoints.begin(), endpoints.end(), end) == endpoints.end()) {
        std::string message = "link endpoint '" + end + "' is not a pool, 'agents' or 'dataplane'";
        if (auto near = nearest_key(end, endpoints)) message += "; did you mean '" + *near + "'?";
        l.fail("between", message + " Known endpoints: " + join(endpoints));
      }
    }
    if (between[0] == between[1]) l.fail("between", "a link needs two different endpoints");
    link.a = between[0];
    link.b = between[1];
    link.params.bandwidth_bytes_per_s =
        l.quantity({"bandwidth", "the link's bandwidth"}, Quantity::bandwidth);
    link.params.latency_s = l.quantity_or({"latency", "the link's latency, paid once per transfer"},
                                          Quantity::duration, default_latency_s, true);
    l.finish();
    cluster.links.push_back(link);
  }
  r.finish();
  return cluster;
}

}  // namespace rlsim
