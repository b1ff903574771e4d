// Topology: the cluster's zones (pools, the agent hosts, the data-plane host) and the links between
// them as a Boost.Graph. It is validated before any SimGrid object exists — connected, every pool
// reachable, no zero-bandwidth link — and gives the route (sequence of links) between any two zones
// as the lowest-latency path, ties broken by fewer hops.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace rlsim {

struct ZoneVertex {
  std::string name;  ///< pool name, "agents" or "dataplane"
};

struct LinkEdge {
  int link_index = 0;  ///< index into ClusterSpec::links
  double latency_s = 0.0;
  double bandwidth_bytes_per_s = 0.0;
  double route_weight = 0.0;  ///< latency plus a tiny per-hop term, so equal-latency routes prefer fewer hops
};

using TopologyGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, ZoneVertex, LinkEdge>;

/// Whether the agent hosts and the data-plane host must be linked to the pools. RL scenarios need
/// them; an AFD decode instance uses pools only, so there they may stay unlinked (their routes to
/// the pools are then empty and nothing may travel them).
enum class ServiceZones { required, optional };

class Topology {
 public:
  /// Builds and validates; InputError (at the offending link or pool) when the cluster is unusable.
  explicit Topology(const ClusterSpec& cluster, ServiceZones service_zones = ServiceZones::required);

  const TopologyGraph& graph() const { return graph_; }
  const std::vector<std::string>& zone_names() const { return names_; }
  /// Indices into ClusterSpec::links along the route from zone `from` to zone `to` (empty if same,
  /// or when one of them is an unlinked optional service zone).
  const std::vector<int>& route(size_t from, size_t to) const { return routes_[from][to]; }
  size_t zone_index(const std::string& name) const;

 private:
  TopologyGraph graph_;
  std::vector<std::string> names_;
  std::vector<std::vector<std::vector<int>>> routes_;
};

}  // namespace rlsim
