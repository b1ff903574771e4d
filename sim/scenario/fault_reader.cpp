// Reading fault events: `gpu: pool/index`, `node: pool/index` or `link: [a, b]`, a time and a
// repair duration.
#include "sim/scenario/fault_reader.h"

#include <algorithm>

#include "sim/scenario/scenario_loader.h"

namespace rlsim {
namespace {

const Field kGpuField{"gpu", "a failing GPU: POOL/INDEX, the index over the pool's GPUs"};
const Field kNodeField{"node", "a failing node (all its GPUs): POOL/INDEX"};
const Field kLinkField{"link", "a failing link, by its two ends as in cluster.links"};
const Field kAtField{"at", "simulated time of the failure"};
const Field kRepairField{"repair_after", "time until the target works again"};

// The index of the cluster link between the two endpoints of `link: [a, b]` (either order).
int read_link_target(YamlReader& r, const ClusterSpec& cluster, std::string& target) {
  const std::vector<std::string> ends = r.text_list(kLinkField);
  std::vector<std::string> known;
  for (size_t i = 0; i < cluster.links.size(); ++i) {
    const ClusterLinkSpec& l = cluster.links[i];
    known.push_back("[" + l.a + ", " + l.b + "]");
    if (ends.size() == 2 && ((l.a == ends[0] && l.b == ends[1]) || (l.a == ends[1] && l.b == ends[0]))) {
      target = "link " + ends[0] + "-" + ends[1];
      return static_cast<int>(i);
    }
  }
  r.fail("link",
         "expected the two ends of one of cluster.links (" + join(known) + "), found [" + join(ends) + "]");
}

void read_target(YamlReader& r, const ClusterSpec& cluster, FaultEvent& e) {
  const bool gpu = r.has("gpu"), node = r.has("node");
  if (gpu == node) {
    r.fail_here("a fault names exactly one target: 'gpu: POOL/INDEX', 'node: POOL/INDEX' or 'link: [A, B]'");
  }
  const std::string key = gpu ? "gpu" : "node";
  const std::string text = r.text(key == "gpu" ? kGpuField : kNodeField);
  const auto slash = text.find('/');
  if (slash == std::string::npos) r.fail(key, "expected POOL/INDEX for '" + key + "', found '" + text + "'");
  e.pool = text.substr(0, slash);
  check_pool_reference(r, key, e.pool, cluster);
  const PoolSpec& pool = *cluster.pool(e.pool);
  int index = -1;
  try {
    size_t used = 0;
    index = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) index = -1;
  } catch (const std::exception&) {
    index = -1;
  }
  const int count = gpu ? pool.gpus() : pool.nodes;
  if (index < 0 || index >= count) {
    r.fail(key, "'" + text + "': pool '" + e.pool + "' has " + key + "s 0-" + std::to_string(count - 1));
  }
  e.first_gpu = gpu ? index : index * pool.gpus_per_node;
  e.gpus = gpu ? 1 : pool.gpus_per_node;
  e.target = key + " " + text;
}

}  // namespace

FaultsSpec read_faults(YamlReader& r, const ClusterSpec& cluster) {
  const FaultsSpec defaults;
  FaultsSpec f;
  f.recovery =
      r.choice_or({"recovery", "how lost work is redone: restart the step or go back to the last checkpoint"},
                  defaults.recovery);
  f.checkpoint_interval =
      static_cast<int>(r.integer_or({"checkpoint_interval", "RL steps between checkpoints", "steps"},
                                    defaults.checkpoint_interval, 1, 100000));
  f.restart_s = r.quantity_or({"restart", "time to restart the job after a failure"}, Quantity::duration,
                              defaults.restart_s, true);
  for (YamlReader& entry : r.map_list_or_empty({"events", "the failures: each a gpu, node or link"})) {
    const FieldDoc target{"", "text", "", "none", "", "", {}};
    entry.describe(kGpuField, target);
    entry.describe(kNodeField, target);
    entry.describe(kLinkField, {"", "list of names", "", "none", "", "", {}});
    if (entry.has("link")) {
      if (entry.has("gpu") || entry.has("node")) {
        entry.fail(
            "link",
            "a fault names exactly one target: 'gpu: POOL/INDEX', 'node: POOL/INDEX' or 'link: [A, B]'");
      }
      LinkFault l;
      l.where = entry.where();
      l.link = read_link_target(entry, cluster, l.target);
      l.at_s = entry.quantity(kAtField, Quantity::duration, true);
      l.repair_after_s = entry.quantity(kRepairField, Quantity::duration);
      entry.finish();
      f.link_events.push_back(l);
      continue;
    }
    FaultEvent e;
    e.where = entry.where();
    read_target(entry, cluster, e);
    e.at_s = entry.quantity(kAtField, Quantity::duration, true);
    e.repair_after_s = entry.quantity(kRepairField, Quantity::duration);
    entry.finish();
    f.events.push_back(e);
  }
  std::stable_sort(f.events.begin(), f.events.end(),
                   [](const auto& a, const auto& b) { return a.at_s < b.at_s; });
  std::stable_sort(f.link_events.begin(), f.link_events.end(),
                   [](const auto& a, const auto& b) { return a.at_s < b.at_s; });
  r.finish();
  return f;
}

}  // namespace rlsim
