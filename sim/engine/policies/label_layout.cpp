// Grouping tagged nodes into instances.
#include "sim/engine/policies/label_layout.h"

#include <algorithm>

namespace rlsim {

LabelLayout label_layout(const RlContext& context) {
  const Scenario& s = context.scenario;
  LabelLayout layout;
  const size_t tp = static_cast<size_t>(s.rollout.tp);
  for (const GpuGroup& pool : context.pools) {
    const auto per_node = static_cast<size_t>(pool.pool->gpus_per_node);
    for (size_t node = 0; node * per_node < pool.hosts.size(); ++node) {
      const auto tags = s.labels.tags_of(pool.pool->name, static_cast<int>(node), s.training.pool);
      const bool rollout = std::find(tags.begin(), tags.end(), "rollout") != tags.end();
      const bool train = std::find(tags.begin(), tags.end(), "train") != tags.end();
      for (size_t first = node * per_node; first < (node + 1) * per_node; first += rollout ? tp : per_node) {
        if (!rollout) {
          if (train) {
            layout.idle_trainers.hosts.insert(layout.idle_trainers.hosts.end(),
                                              pool.hosts.begin() + static_cast<long>(first),
                                              pool.hosts.begin() + static_cast<long>(first + per_node));
            layout.idle_trainers.tracks.insert(layout.idle_trainers.tracks.end(),
                                               pool.tracks.begin() + static_cast<long>(first),
                                               pool.tracks.begin() + static_cast<long>(first + per_node));
          }
          continue;
        }
        GpuGroup group;
        group.pool = pool.pool;
        group.hosts.assign(pool.hosts.begin() + static_cast<long>(first),
                           pool.hosts.begin() + static_cast<long>(first + tp));
        group.tracks.assign(pool.tracks.begin() + static_cast<long>(first),
                            pool.tracks.begin() + static_cast<long>(first + tp));
        (train ? layout.flexible : layout.rollout_only).push_back(static_cast<int>(layout.instances.size()));
        if (train) {
          layout.lent_trainers.hosts.insert(layout.lent_trainers.hosts.end(), group.hosts.begin(),
                                            group.hosts.end());
          layout.lent_trainers.tracks.insert(layout.lent_trainers.tracks.end(), group.tracks.begin(),
                                             group.tracks.end());
        }
        layout.instances.push_back(std::move(group));
      }
    }
  }
  return layout;
}

}  // namespace rlsim
