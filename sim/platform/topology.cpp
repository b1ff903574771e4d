// Building, validating and routing the zone-level topology with Boost.Graph.
#include "sim/platform/topology.h"

#include <algorithm>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cassert>

#include "sim/scenario/yaml_reader.h"

namespace rlsim {

Topology::Topology(const ClusterSpec& cluster, ServiceZones service_zones) {
  for (const auto& pool : cluster.pools) names_.push_back(pool.name);
  names_.push_back("agents");
  names_.push_back("dataplane");
  for (const auto& name : names_) boost::add_vertex(ZoneVertex{name}, graph_);

  for (size_t i = 0; i < cluster.links.size(); ++i) {
    const ClusterLinkSpec& link = cluster.links[i];
    if (!(link.params.bandwidth_bytes_per_s > 0.0)) {
      throw InputError(link.where, "link between '" + link.a + "' and '" + link.b + "' has zero bandwidth");
    }
    boost::add_edge(zone_index(link.a), zone_index(link.b),
                    LinkEdge{static_cast<int>(i), link.params.latency_s, link.params.bandwidth_bytes_per_s,
                             link.params.latency_s + 1e-12},
                    graph_);
  }

  std::vector<int> component(boost::num_vertices(graph_));
  boost::connected_components(graph_, component.data());
  const size_t agents = zone_index("agents");
  const size_t dataplane = zone_index("dataplane");
  const int main_component = component[0];
  for (size_t v = 0; v < names_.size(); ++v) {
    if (component[v] == main_component) continue;
    if (service_zones == ServiceZones::optional && (v == agents || v == dataplane)) continue;
    const SourceLocation where = v < cluster.pools.size() ? cluster.pools[v].where
                                 : cluster.links.empty()  ? cluster.pools.front().where
                                                          : cluster.links.front().where;
    std::vector<std::string> reachable;
    for (size_t u = 0; u < names_.size(); ++u) {
      if (component[u] == main_component) reachable.push_back(names_[u]);
    }
    const std::string what = v == agents      ? "the agent hosts ('agents')"
                             : v == dataplane ? "the data-plane host ('dataplane')"
                                              : "pool '" + names_[v] + "'";
    throw InputError(where, what + " cannot reach " + join(reachable) +
                                "; add an entry to cluster.links, e.g. {between: [" + names_[v] + ", " +
                                reachable.front() + "], bandwidth: 200Gbps}");
  }

  // All-pairs routes: one Dijkstra per zone (a handful of zones).
  const size_t n = names_.size();
  routes_.assign(n, std::vector<std::vector<int>>(n));
  for (size_t source = 0; source < n; ++source) {
    std::vector<TopologyGraph::vertex_descriptor> predecessor(n);
    std::vector<double> distance(n);
    auto weight = boost::get(&LinkEdge::route_weight, graph_);
    boost::dijkstra_shortest_paths(
        graph_, source,
        boost::predecessor_map(predecessor.data()).distance_map(distance.data()).weight_map(weight));
    for (size_t target = 0; target < n; ++target) {
      std::vector<int> path;
      if (component[target] != component[source]) continue;  // an unlinked optional service zone
      for (size_t v = target; v != source; v = predecessor[v]) {
        const size_t u = predecessor[v];
        assert(u != v && "connected graph must have a predecessor");
        // Among parallel links pick the lowest-latency one, then the widest.
        const LinkEdge* best = nullptr;
        for (auto [e, end] = boost::out_edges(u, graph_); e != end; ++e) {
          if (boost::target(*e, graph_) != v) continue;
          const LinkEdge& candidate = graph_[*e];
          if (!best || candidate.latency_s < best->latency_s ||
              (candidate.latency_s == best->latency_s &&
               candidate.bandwidth_bytes_per_s > best->bandwidth_bytes_per_s)) {
            best = &candidate;
          }
        }
        path.push_back(best->link_index);
      }
      std::reverse(path.begin(), path.end());
      routes_[source][target] = std::move(path);
    }
  }
}

size_t Topology::zone_index(const std::string& name) const {
  auto it = std::find(names_.begin(), names_.end(), name);
  assert(it != names_.end() && "zone names are checked by the scenario loader");
  return static_cast<size_t>(it - names_.begin());
}

}  // namespace rlsim
