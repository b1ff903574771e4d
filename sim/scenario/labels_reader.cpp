// Reading and checking capability tags per node range.
#include "sim/scenario/labels_reader.h"

#include <algorithm>
#include <map>

#include "sim/scenario/scenario_loader.h"

namespace rlsim {
namespace {

const std::vector<std::string> kTags{"rollout", "train", "reference", "critic"};

/// `nodes: 3` or `nodes: 0-1`; absent means every node of the pool.
void read_node_range(YamlReader& r, const PoolSpec& pool, NodeLabels& labels) {
  r.describe({"nodes", "the nodes of the pool this entry tags: an index or a range such as 0-3"},
             {"", "node range", "", "every node of the pool", "", "", {}});
  YAML::Node value = r.raw("nodes");
  labels.first_node = 0;
  labels.last_node = pool.nodes - 1;
  if (value && !value.IsNull()) {
    const std::string text = value.IsScalar() ? value.Scalar() : "";
    const auto dash = text.find('-');
    try {
      size_t used = 0;
      if (dash == std::string::npos) {
        labels.first_node = labels.last_node = std::stoi(text, &used);
        if (used != text.size()) throw std::invalid_argument(text);
      } else {
        labels.first_node = std::stoi(text.substr(0, dash), &used);
        if (used != dash) throw std::invalid_argument(text);
        labels.last_node = std::stoi(text.substr(dash + 1), &used);
        if (used != text.size() - dash - 1) throw std::invalid_argument(text);
      }
    } catch (const std::exception&) {
      r.fail("nodes", "expected a node index or a range such as 0-3 for 'nodes', found '" + text + "'");
    }
    if (labels.first_node < 0 || labels.last_node < labels.first_node || labels.last_node >= pool.nodes) {
      r.fail("nodes", "node range '" + text + "' is outside pool '" + pool.name + "' (nodes 0-" +
                          std::to_string(pool.nodes - 1) + ")");
    }
  }
  r.record("nodes", YAML::Node(std::to_string(labels.first_node) + "-" + std::to_string(labels.last_node)));
}

}  // namespace

LabelsSpec read_labels(YamlReader& r, const Scenario& s) {
  LabelsSpec labels;
  std::map<std::string, std::vector<int>> seen;  // pool -> node -> times labelled
  for (const auto& pool : s.cluster.pools) seen[pool.name].assign(static_cast<size_t>(pool.nodes), 0);
  for (YamlReader& entry : r.map_list_or_empty(
           {"nodes",
            "tag entries: which nodes of which pool may do which phases; none: every node keeps its "
            "pool's role"})) {
    NodeLabels n;
    n.where = entry.where();
    n.pool = entry.text({"pool", "the pool whose nodes this entry tags"});
    check_pool_reference(entry, "pool", n.pool, s.cluster);
    const PoolSpec& pool = *s.cluster.pool(n.pool);
    read_node_range(entry, pool, n);
    n.tags = entry.text_list({"tags", "phases these nodes may run: rollout, train, reference, critic"});
    if (n.tags.empty()) entry.fail("tags", "a node range needs at least one tag (" + join(kTags) + ")");
    for (const auto& tag : n.tags) {
      if (std::find(kTags.begin(), kTags.end(), tag) == kTags.end()) {
        std::string message = "unknown tag '" + tag + "'";
        if (auto near = nearest_key(tag, kTags)) message += "; did you mean '" + *near + "'?";
        entry.fail("tags", message + " Valid tags: " + join(kTags));
      }
    }
    const bool trains = n.has("train") || n.has("reference") || n.has("critic");
    if (trains != (n.pool == s.training.pool)) {
      entry.fail("tags",
                 "training (and its reference and critic passes) runs on every node of training.pool ('" +
                     s.training.pool + "') and only there; nodes of pool '" + n.pool + "' " +
                     (trains ? "cannot be tagged train, reference or critic" : "must be tagged train"));
    }
    if (n.has("rollout") && pool.gpus_per_node % s.rollout.tp != 0) {
      entry.fail("tags", "rollout.tp (" + std::to_string(s.rollout.tp) +
                             ") must divide gpus_per_node of pool '" + n.pool + "' to roll out there");
    }
    for (int node = n.first_node; node <= n.last_node; ++node) {
      if (seen[n.pool][static_cast<size_t>(node)]++ > 0) {
        entry.fail("nodes", "node " + std::to_string(node) + " of pool '" + n.pool + "' is labelled twice");
      }
    }
    entry.finish();
    labels.nodes.push_back(std::move(n));
  }
  if (!labels.nodes.empty()) {
    for (const auto& pool : s.cluster.pools) {
      const auto& counts = seen[pool.name];
      const auto missing = std::find(counts.begin(), counts.end(), 0);
      if (missing != counts.end()) {
        r.fail("nodes", "node " + std::to_string(missing - counts.begin()) + " of pool '" + pool.name +
                            "' has no labels; every node needs at least one tag");
      }
    }
  }
  const LabelsSpec defaults;
  labels.interruptible =
      r.flag_or({"interruptible", "training may preempt rollout on train-tagged nodes that roll out"},
                defaults.interruptible);
  labels.launch = r.choice_or(
      {"launch", "when rollout work is launched: once per step, or rolling as the staleness bound allows"},
      defaults.launch);
  labels.preemption = r.choice_or(
      {"preemption", "what happens to a preempted rollout: migrate to another instance or recompute"},
      defaults.preemption);
  r.finish();
  return labels;
}

}  // namespace rlsim
