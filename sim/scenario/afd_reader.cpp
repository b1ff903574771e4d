// The AFD scenario schema: each field's default, unit and range is declared once here.
#include "sim/scenario/afd_reader.h"

#include <algorithm>
#include <filesystem>

#include "models/cost/cost_model_registry.h"
#include "sim/scenario/cluster_reader.h"
#include "sim/scenario/context_window_check.h"
#include "sim/scenario/memory_check.h"
#include "sim/scenario/param_reader.h"
#include "sim/scenario/scenario_header.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {
namespace {

constexpr int64_t kMaxBatch = 10'000'000;
const char* const kFromCatalog = "the catalog model's";

// Design sweeps change the model's structure: a catalog row with a few fields replaced.
ModelArch read_model_edits(YamlReader& r, ModelArch m) {
  m.layers = static_cast<int>(
      r.integer_or({"layers", "decoder layers", "layers", kFromCatalog}, m.layers, 1, 10000));
  m.hidden_size = static_cast<int>(
      r.integer_or({"hidden_size", "hidden dimension", "", kFromCatalog}, m.hidden_size, 1, 1 << 20));
  FfnConfig& f = m.ffn;
  if (f.is_moe()) {
    f.routed_experts = static_cast<int>(
        r.integer_or({"routed_experts", "routed experts (MoE only)", "experts", kFromCatalog},
                     f.routed_experts, 1, 1 << 16));
    f.experts_per_token = static_cast<int>(
        r.integer_or({"experts_per_token", "routed experts per token (MoE only)", "experts", kFromCatalog},
                     std::min(f.experts_per_token, f.routed_experts), 1, f.routed_experts));
    f.expert_intermediate_size = static_cast<int>(
        r.integer_or({"expert_intermediate_size", "FFN width of one expert (MoE only)", "", kFromCatalog},
                     f.expert_intermediate_size, 1, 1 << 22));
    f.shared_experts = static_cast<int>(r.integer_or(
        {"shared_experts", "shared experts (MoE only)", "experts", kFromCatalog}, f.shared_experts, 0, 64));
  } else {
    for (const char* key :
         {"routed_experts", "experts_per_token", "expert_intermediate_size", "shared_experts"}) {
      if (r.has(key))
        r.fail(key, "model '" + m.name + "' is dense; '" + key + "' applies to MoE models only");
    }
  }
  std::erase_if(f.dense_layers, [&](int layer) { return layer >= m.layers; });
  r.finish();
  return m;
}

std::string sweep_values_text(const YamlReader& r, const std::string& path, const YAML::Node& values) {
  const auto bad = [&](const YAML::Node& at) {
    throw InputError(r.source().locate(at, r.path() + ".params." + path),
                     "expected a list of values or 'lo:hi:step' for sweep parameter '" + path + "'");
  };
  if (values.IsScalar() && !values.Scalar().empty()) return values.Scalar();
  if (!values.IsSequence() || values.size() == 0) bad(values);
  std::vector<std::string> items;
  for (const auto& item : values) {
    if (!item.IsScalar() || item.Scalar().empty()) bad(item);
    items.push_back(item.Scalar());
  }
  return join(items, ",");
}

std::vector<SweepAxisSpec> read_sweep(YamlReader& r) {
  std::vector<SweepAxisSpec> axes;
  r.describe({"params",
              "the grid `rlsim sweep` runs without --param: parameter paths to lists of values or "
              "lo:hi:step"},
             {"", "mapping", "", "{}", "", "", {}});
  const YAML::Node params = r.raw("params");
  if (params && !params.IsNull()) {
    if (!params.IsMap())
      r.fail("params", "expected a mapping of parameter paths to values, e.g. {afd.batch: [64, 128]}");
    YAML::Node resolved(YAML::NodeType::Map);
    for (const auto& entry : params) {
      const std::string path = entry.first.Scalar();
      axes.push_back({path, sweep_values_text(r, path, entry.second)});
      resolved[path] = axes.back().values;
    }
    r.record("params", resolved);
  }
  r.finish();
  return axes;
}

// The GPUs of one side: a pool and how many of its GPUs, `taken` of which the other side uses.
std::pair<std::string, int> read_side(YamlReader& r, const ClusterSpec& cluster,
                                      const std::string& default_pool, const std::string& default_words,
                                      int taken_in, const std::string& other_pool) {
  const std::string pool =
      r.text_or({"pool", "the pool this side's GPUs come from", "", default_words}, default_pool);
  check_pool_reference(r, "pool", pool, cluster);
  const int available = cluster.pool(pool)->gpus() - (pool == other_pool ? taken_in : 0);
  if (available < 1) r.fail("pool", "pool '" + pool + "' has no GPUs left for this side");
  const int gpus = static_cast<int>(r.integer_or(
      {"gpus", "GPUs on this side", "GPUs", "the pool's GPUs (less the other side's on a shared pool)",
       "1 to the pool's GPUs left for this side"},
      available, 1, available));
  return {pool, gpus};
}

AfdDeploymentSpec read_deployment(YamlReader& r, const ClusterSpec& cluster) {
  const AfdDeploymentSpec defaults;
  AfdDeploymentSpec d;
  YamlReader attention = r.map_or_empty({"attention", "the attention side: its GPUs hold the KV cache"});
  std::tie(d.attention_pool, d.attention_gpus) =
      read_side(attention, cluster, cluster.pools.front().name, "the first pool", 0, "");
  attention.finish();
  YamlReader ffn = r.map_or_empty({"ffn", "the FFN (experts) side"});
  std::tie(d.ffn_pool, d.ffn_gpus) =
      read_side(ffn, cluster, cluster.pools.back().name, "the last pool", d.attention_gpus, d.attention_pool);
  const PoolSpec& ffn_pool = *cluster.pool(d.ffn_pool);
  d.ffn_tp = static_cast<int>(ffn.integer_or(
      {"tp",
       "FFN GPUs per expert group: 1 spreads the experts over all FFN GPUs (EP); t > 1 is hybrid EP + TP, "
       "groups of t GPUs in one node each sharding its experts t ways, with an all-gather and a "
       "reduce-scatter inside the group per layer",
       "GPUs", "", "1 to the FFN pool's gpus_per_node"},
      defaults.ffn_tp, 1, ffn_pool.gpus_per_node));
  const std::string grouping = afd_ffn_group_problem(
      d.ffn_tp, d.ffn_gpus, d.ffn_pool == d.attention_pool ? d.attention_gpus : 0, ffn_pool.gpus_per_node);
  if (!grouping.empty()) ffn.fail("tp", grouping);
  ffn.finish();
  d.micro_batches = static_cast<int>(r.integer_or(
      {"micro_batches", "ping-pong micro-batches overlapping attention, FFN and transfers", "micro-batches"},
      defaults.micro_batches, 1, 64));
  d.batch = r.integer({"batch", "sequences decoded together by the deployment", "sequences"}, 1, kMaxBatch);
  if (d.batch < d.micro_batches) {
    r.fail("batch", "batch " + std::to_string(d.batch) + " is smaller than micro_batches (" +
                        std::to_string(d.micro_batches) + "): every micro-batch needs a sequence");
  }
  d.context = r.integer_or({"context", "tokens in each sequence's KV cache", "tokens"}, defaults.context, 0,
                           kMaxBatch);
  d.precisions.weights =
      read_precision(r, {"weights", "precision of the weights"}, defaults.precisions.weights);
  d.precisions.kv = read_precision(r, {"kv_cache", "precision of the KV cache"}, defaults.precisions.kv);
  d.precisions.dispatch = read_precision(r, {"dispatch", "precision of the activations sent to the FFN side"},
                                         defaults.precisions.dispatch);
  d.precisions.combine = read_precision(r, {"combine", "precision of the expert outputs sent back"},
                                        defaults.precisions.combine);
  d.target_tpot_s = r.quantity_or({"target_tpot", "time-per-output-token target the deployment is judged by"},
                                  Quantity::duration, defaults.target_tpot_s);
  d.iterations = static_cast<int>(
      r.integer_or({"iterations", "decode iterations simulated", "iterations"}, defaults.iterations, 1, 100));
  d.activation_memory_fraction = r.number_or(
      {"activation_memory_fraction", "share of card memory kept for activations and workspace, not KV"},
      defaults.activation_memory_fraction, 0.0, 0.9);
  r.finish();
  return d;
}

void check_every_afd_pool_used(const AfdScenario& s) {
  for (const auto& pool : s.cluster.pools) {
    if (pool.name != s.afd.attention_pool && pool.name != s.afd.ffn_pool) {
      throw InputError(pool.where, "pool '" + pool.name + "' is used by neither afd.attention.pool ('" +
                                       s.afd.attention_pool + "') nor afd.ffn.pool ('" + s.afd.ffn_pool +
                                       "')");
    }
  }
}

}  // namespace

LoadedAfdScenario load_afd_scenario(const std::string& path, const LoadOptions& options) {
  YamlSource source = load_yaml_file(path);
  source.fields = options.fields;
  apply_load_overrides(source, options);

  YAML::Node resolved(YAML::NodeType::Map);
  YamlReader root(source, source.root, "", resolved);
  const AfdScenario defaults;
  LoadedAfdScenario loaded;
  AfdScenario& s = loaded.scenario;
  s.file = path;
  if (root.choice_or(kKindField, ScenarioFileKind::rl) != ScenarioFileKind::afd) {
    root.fail("kind", "load_afd_scenario needs 'kind: afd'");
  }
  read_name_and_seed(root, path, options, defaults.seed, s.name, s.seed);
  loaded.catalog = load_scenario_catalog(root, path, options);
  s.model = loaded.catalog.model(root.text(kModelField), root.where("model"));
  YamlReader edits = root.map_or_empty(
      {"model_edits", "the catalog model with a few structural fields replaced (design sweeps)"});
  s.model = read_model_edits(edits, s.model);

  YamlReader cluster = root.map(kClusterField);
  s.cluster = read_cluster(cluster, loaded.catalog);
  YamlReader afd = root.map({"afd", "one attention-FFN-disaggregated decode deployment (docs/afd.md)"});
  s.afd = read_deployment(afd, s.cluster);

  YamlReader cost =
      root.map_or_empty({"cost_model",
                         "how the AFD simulation prices ops: a registered cost model, its parameters "
                         "and an optional profile"});
  const CostModelRegistry& cost_models = CostModelRegistry::instance();
  s.cost_model = read_plugin_name(cost, cost_models, "cost model", defaults.cost_model.name);
  // No profile: nothing recorded, so resolved.yaml re-runs (an empty `profile:` is an error).
  const Field profile{"profile", "a calibrated hardware profile (relative to the scenario)"};
  if (cost.has("profile")) {
    s.profile = cost.text(profile);
  } else {
    cost.describe(profile, {"", "file", "", "none", "", "", {}});
    cost.raw("profile");
  }
  if (!s.profile.empty() && std::filesystem::path(s.profile).is_relative()) {
    s.profile = (std::filesystem::path(path).parent_path() / s.profile).string();
  }
  read_plugin_params(cost, cost_models, "cost model", s.cost_model);
  make_cost_model(s.cost_model, s.profile);  // a profile the model cannot use fails here
  if (!s.profile.empty()) check_profile_fits(cost, "profile", s.profile, s.cluster, loaded.catalog);
  cost.finish();

  YamlReader sweep = root.map_or_empty({"sweep", "the scenario's own sweep grid"});
  s.sweep = read_sweep(sweep);

  check_every_afd_pool_used(s);
  if (options.check_memory) {
    check_within_context_window(s.model, static_cast<double>(s.afd.context) + 1.0,
                                "a sequence of afd.context and its next token", afd.where("context"));
    check_afd_memory(s, afd);
  }
  root.finish();

  loaded.resolved_yaml = resolved_yaml_text(resolved);
  return loaded;
}

}  // namespace rlsim
