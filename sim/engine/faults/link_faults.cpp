// The link-fault actor: bandwidth to a trickle at each failure, back at each repair.
#include "sim/engine/faults/link_faults.h"

#include <algorithm>
#include <simgrid/s4u.hpp>
#include <tuple>
#include <vector>

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

constexpr double kStalledBytesPerS = 1.0;  // a trickle: SimGrid needs a positive bandwidth

}  // namespace

void start_link_faults(const FaultsSpec& faults, const Platform& platform) {
  if (faults.link_events.empty()) return;
  // (time, link, +1 down / -1 up); overlapping outages of one link keep it down until the last repair.
  std::vector<std::tuple<double, int, int>> changes;
  for (const LinkFault& f : faults.link_events) {
    changes.emplace_back(f.at_s, f.link, +1);
    changes.emplace_back(f.at_s + f.repair_after_s, f.link, -1);
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  std::vector<sg4::Link*> links = platform.cluster_links;
  sg4::Actor::create("link-faults", platform.dataplane, [changes, links]() {
    std::vector<double> nominal;
    for (auto* link : links) nominal.push_back(link->get_bandwidth());
    std::vector<int> down(links.size(), 0);
    for (const auto& [at, index, delta] : changes) {
      sg4::this_actor::sleep_until(at);
      const auto i = static_cast<size_t>(index);
      down[i] += delta;
      links[i]->set_bandwidth(down[i] > 0 ? kStalledBytesPerS : nominal[i]);
    }
  })->daemonize();
}

double link_seconds_down(const FaultsSpec& faults) {
  double seconds = 0.0;
  for (const LinkFault& f : faults.link_events) seconds += f.repair_after_s;
  return seconds;
}

}  // namespace rlsim
