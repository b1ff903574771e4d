// Readers for the `cluster:` section (pools, links, fabric, agent and data-plane hosts) and the
// small field types other sections share (a link's bandwidth and latency, a precision). Used by
// every scenario kind that needs a cluster.
#pragma once

#include "sim/scenario/catalog.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

ClusterSpec read_cluster(YamlReader& r, const Catalog& catalog);
/// {bandwidth, latency}; absent fields take `fallback`'s (`bandwidth_default`: the reference's words
/// for a default that depends on the scenario).
LinkParams read_link(YamlReader& r, const LinkParams& fallback, const std::string& bandwidth_default = "");
Precision read_precision(YamlReader& r, const Field& field, Precision fallback);

}  // namespace rlsim
