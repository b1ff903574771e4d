// The inputs that changed between two runs, on meaning (`rlsim diff`): both resolved.yaml files read
// as YAML trees and compared field by field, each change as `path: before -> after`. List items
// that have a `name` (pools, links by their ends, cases) are matched by it, so a pool's change reads
// `cluster.pools[rollout].nodes: 1 -> 2` wherever the pool sits in the list; other list items by
// index. A field one side lacks shows as `(absent)`.
#pragma once

#include <string>
#include <vector>

#include "tools/report/run_diff.h"

namespace rlsim {

/// The fields of the two YAML texts that differ, in path order (then fields only `b` has);
/// `relative` is the relative change where both are numbers. InputError when either is not YAML.
std::vector<FigureChange> diff_inputs(const std::string& yaml_a, const std::string& yaml_b,
                                      const std::string& file_a, const std::string& file_b);

}  // namespace rlsim
