// The scenario schema: each section's fields, defaults, units and ranges are declared once here.
#include "sim/scenario/scenario_loader.h"

#include <filesystem>
#include <set>

#include "sim/scenario/distribution_reader.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {
namespace {

constexpr int64_t kMaxCount = 1'000'000;
const std::vector<std::string> kReservedEndpoints{"agents", "dataplane"};

LinkParams read_link(YamlReader& r, const LinkParams& fallback) {
  LinkParams link;
  link.bandwidth_bytes_per_s = r.quantity_or("bandwidth", Quantity::bandwidth, fallback.bandwidth_bytes_per_s);
  link.latency_s = r.quantity_or("latency", Quantity::duration, fallback.latency_s, true);
  r.finish();
  return link;
}

Precision read_precision(YamlReader& r, const std::string& key, Precision fallback) {
  std::vector<std::string> names;
  for (Precision p : all_precisions()) names.emplace_back(to_string(p));
  return *parse_precision(r.choice_or(key, names, std::string(to_string(fallback))));
}

PoolSpec read_pool(YamlReader& r, const Catalog& catalog, const std::optional<LinkParams>& intra_default,
                   const std::optional<LinkParams>& nic_default) {
  PoolSpec pool;
  pool.where = r.where();
  pool.name = r.text("name");
  for (const auto& reserved : kReservedEndpoints) {
    if (pool.name == reserved) r.fail("name", "'" + reserved + "' is reserved for the cluster's " + reserved + "; pick another pool name");
  }
  const std::string gpu = r.text("gpu");
  pool.card = catalog.card(gpu, r.where("gpu"));
  pool.nodes = static_cast<int>(r.integer("nodes", 1, kMaxCount));
  pool.gpus_per_node = static_cast<int>(r.integer_or("gpus_per_node", 8, 1, 64));
  // Scale-up and NIC links default to the card's datasheet figures, unless the cluster or the pool
  // says otherwise.
  const LinkParams card_intra{pool.card.intra_node_bw_bytes_per_s, 1e-6};
  const LinkParams card_nic{pool.card.nic_bw_bytes_per_s, 2e-6};
  YamlReader intra = r.map_or_empty("intra_node");
  pool.intra_node = read_link(intra, intra_default.value_or(card_intra));
  YamlReader nic = r.map_or_empty("nic");
  pool.nic = read_link(nic, nic_default.value_or(card_nic));
  r.finish();
  return pool;
}

ClusterSpec read_cluster(YamlReader& r, const Catalog& catalog) {
  ClusterSpec cluster;
  // Cluster-wide link settings apply to every pool that does not set its own.
  std::optional<LinkParams> intra_default, nic_default;
  if (r.has("intra_node")) {
    YamlReader intra = r.map("intra_node");
    intra_default = read_link(intra, {0.0, 1e-6});
  } else {
    r.raw("intra_node");
  }
  if (r.has("nic")) {
    YamlReader nic = r.map("nic");
    nic_default = read_link(nic, {0.0, 2e-6});
  } else {
    r.raw("nic");
  }
  std::set<std::string> names;
  for (YamlReader& p : r.map_list("pools")) {
    PoolSpec pool = read_pool(p, catalog, intra_default, nic_default);
    if (!names.insert(pool.name).second) p.fail("name", "duplicate pool name '" + pool.name + "'");
    cluster.pools.push_back(std::move(pool));
  }
  YamlReader fabric = r.map_or_empty("fabric");
  // A fabric is non-blocking (a fat pipe) unless it is given a bisection bandwidth.
  if (!fabric.has("bandwidth") || fabric.node()["bandwidth"].as<std::string>("") == "non-blocking") {
    fabric.record("bandwidth", YAML::Node("non-blocking"));
  } else {
    cluster.fabric.bandwidth_bytes_per_s = fabric.quantity("bandwidth", Quantity::bandwidth);
  }
  cluster.fabric.latency_s = fabric.quantity_or("latency", Quantity::duration, 1e-6, true);
  fabric.finish();

  YamlReader agents = r.map_or_empty("agents");
  cluster.agents.hosts = static_cast<int>(agents.integer_or("hosts", 1, 1, kMaxCount));
  cluster.agents.cores = static_cast<int>(agents.integer_or("cores", 64, 1, 1 << 20));
  YamlReader agent_nic = agents.map_or_empty("nic");
  cluster.agents.nic = read_link(agent_nic, {25e9, 5e-6});
  agents.finish();

  YamlReader dataplane = r.map_or_empty("dataplane");
  YamlReader dp_nic = dataplane.map_or_empty("nic");
  cluster.dataplane.nic = read_link(dp_nic, {25e9, 5e-6});
  cluster.dataplane.seconds_per_record = dataplane.quantity_or("cost_per_record", Quantity::duration, 0.0, true);
  cluster.dataplane.bytes_per_s = dataplane.quantity_or("record_bandwidth", Quantity::bandwidth, 1e9);
  dataplane.finish();

  std::vector<std::string> endpoints(names.begin(), names.end());
  endpoints.insert(endpoints.end(), kReservedEndpoints.begin(), kReservedEndpoints.end());
  for (YamlReader& l : r.map_list_or_empty("links")) {
    ClusterLinkSpec link;
    link.where = l.where();
    auto between = l.text_list("between");
    if (between.size() != 2) l.fail("between", "expected two endpoints in 'between', found " + std::to_string(between.size()));
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
    link.params.bandwidth_bytes_per_s = l.quantity("bandwidth", Quantity::bandwidth);
    link.params.latency_s = l.quantity_or("latency", Quantity::duration, 5e-6, true);
    l.finish();
    cluster.links.push_back(link);
  }
  r.finish();
  return cluster;
}

WorkloadSpec read_workload(YamlReader& r) {
  WorkloadSpec w;
  w.steps = static_cast<int>(r.integer_or("steps", 3, 1, 100000));
  w.prompts_per_step = static_cast<int>(r.integer("prompts_per_step", 1, kMaxCount));
  w.samples_per_prompt = static_cast<int>(r.integer_or("samples_per_prompt", 8, 1, 4096));
  w.turns = read_distribution(r, "turns", std::nullopt, fixed_distribution(1), 1.0);
  w.prompt_tokens = read_distribution(r, "prompt_tokens", std::nullopt, fixed_distribution(512), 1.0);
  w.output_tokens = read_distribution(r, "output_tokens", std::nullopt, fixed_distribution(1024), 1.0);
  w.observation_tokens = read_distribution(r, "observation_tokens", std::nullopt, fixed_distribution(0), 0.0);
  w.tool_latency_s = read_distribution(r, "tool_latency", Quantity::duration, fixed_distribution(0.0), 0.0);
  r.finish();
  return w;
}

void check_pool_reference(YamlReader& r, const std::string& key, const std::string& name, const ClusterSpec& cluster) {
  if (cluster.pool(name)) return;
  std::vector<std::string> names;
  for (const auto& p : cluster.pools) names.push_back(p.name);
  std::string message = "pool '" + name + "' is not defined in cluster.pools";
  if (auto near = nearest_key(name, names)) message += "; did you mean '" + *near + "'?";
  r.fail(key, message + " Defined pools: " + join(names));
}

RolloutSpec read_rollout(YamlReader& r, const ClusterSpec& cluster) {
  RolloutSpec s;
  s.pool = r.text_or("pool", cluster.pools.front().name);
  check_pool_reference(r, "pool", s.pool, cluster);
  const PoolSpec& pool = *cluster.pool(s.pool);
  s.tp = static_cast<int>(r.integer_or("tp", 1, 1, pool.gpus_per_node));
  if (pool.gpus_per_node % s.tp != 0) r.fail("tp", "tp must divide gpus_per_node (" + std::to_string(pool.gpus_per_node) + ")");
  s.max_batch = static_cast<int>(r.integer_or("max_batch", 256, 1, 1 << 20));
  s.weights = read_precision(r, "weights", Precision::bf16);
  s.kv_cache = read_precision(r, "kv_cache", Precision::bf16);
  r.finish();
  return s;
}

TrainingSpec read_training(YamlReader& r, const ClusterSpec& cluster) {
  TrainingSpec s;
  s.pool = r.text_or("pool", cluster.pools.back().name);
  check_pool_reference(r, "pool", s.pool, cluster);
  const PoolSpec& pool = *cluster.pool(s.pool);
  s.tp = static_cast<int>(r.integer_or("tp", 1, 1, pool.gpus_per_node));
  s.pp = static_cast<int>(r.integer_or("pp", 1, 1, 1024));
  s.dp = static_cast<int>(r.integer_or("dp", pool.gpus() / (s.tp * s.pp) > 0 ? pool.gpus() / (s.tp * s.pp) : 1, 1, kMaxCount));
  if (static_cast<int64_t>(s.dp) * s.tp * s.pp != pool.gpus()) {
    r.fail("dp", "dp × tp × pp = " + std::to_string(static_cast<int64_t>(s.dp) * s.tp * s.pp) + " must equal the " +
                     std::to_string(pool.gpus()) + " GPUs of pool '" + s.pool + "'");
  }
  s.algorithm = r.choice_or("algorithm", {"grpo", "ppo"}, "grpo");
  s.mini_batches = static_cast<int>(r.integer_or("mini_batches", 1, 1, 4096));
  s.weights = read_precision(r, "precision", Precision::bf16);
  r.finish();
  return s;
}

void check_every_pool_used(const Scenario& s) {
  for (const auto& pool : s.cluster.pools) {
    if (pool.name != s.rollout.pool && pool.name != s.training.pool) {
      throw InputError(pool.where, "pool '" + pool.name + "' is used by neither rollout.pool ('" + s.rollout.pool +
                                       "') nor training.pool ('" + s.training.pool + "')");
    }
  }
}

}  // namespace

LoadedScenario load_scenario(const std::string& path, const LoadOptions& options) {
  YamlSource source = load_yaml_file(path);
  for (const auto& assignment : options.overrides) apply_override(source, assignment);

  YAML::Node resolved(YAML::NodeType::Map);
  YamlReader root(source, source.root, "", resolved);
  LoadedScenario loaded;
  Scenario& s = loaded.scenario;
  s.file = path;
  s.name = root.text_or("name", std::filesystem::path(path).stem().string());
  s.seed = static_cast<uint64_t>(root.integer_or("seed", 1, 0, INT64_MAX));
  if (options.seed) {
    s.seed = *options.seed;
    root.record("seed", YAML::Node(static_cast<unsigned long long>(s.seed)));
  }

  // Catalogs first: the scenario's own files (relative to it) extend or replace built-in rows.
  loaded.catalog = load_builtin_catalog(options.data_dir.empty() ? default_data_dir() : options.data_dir);
  YAML::Node extra = root.raw("catalog");
  if (extra && !extra.IsNull()) {
    std::vector<std::string> files = root.text_list("catalog");
    for (const auto& file : files) {
      auto full = std::filesystem::path(path).parent_path() / file;
      if (!std::filesystem::exists(full)) root.fail("catalog", "catalog file '" + full.string() + "' does not exist");
      load_catalog_file(full.string(), loaded.catalog);
    }
  }

  const std::string model = root.text("model");
  s.model = loaded.catalog.model(model, root.where("model"));

  YamlReader cluster = root.map("cluster");
  s.cluster = read_cluster(cluster, loaded.catalog);
  YamlReader workload = root.map("workload");
  s.workload = read_workload(workload);
  YamlReader rollout = root.map_or_empty("rollout");
  s.rollout = read_rollout(rollout, s.cluster);
  YamlReader training = root.map_or_empty("training");
  s.training = read_training(training, s.cluster);

  YamlReader sync = root.map_or_empty("weight_sync");
  s.weight_sync.method = sync.choice_or("method", {"broadcast", "ring"}, "broadcast");
  s.weight_sync.precision = read_precision(sync, "precision", s.training.weights);
  sync.finish();

  YamlReader policy = root.map_or_empty("policy");
  s.policy.name = policy.choice_or("name", known_policy_names(), "disaggregated");
  s.policy.max_staleness = static_cast<int>(policy.integer_or("max_staleness", 1, 0, 1000));
  policy.finish();

  check_every_pool_used(s);
  root.finish();

  YAML::Emitter out;
  out << resolved;
  loaded.resolved_yaml = std::string("# Resolved scenario written by rlsim: every default filled in, units canonical.\n") +
                         out.c_str() + "\n";
  return loaded;
}

}  // namespace rlsim
