// The grid of a sweep: axes given as `path=v1,v2,…` or `path=lo:hi:step` (any scenario field, in
// the `--set` path syntax), their product in a fixed order (the first axis varies slowest), each
// point numbered, and the deterministic slice `--shard I/N` runs (points whose number is I−1 mod N).
#pragma once

#include <string>
#include <vector>

#include "models/input_error.h"

namespace rlsim {

struct SweepAxis {
  std::string path;                 ///< e.g. "afd.batch" or "cluster.pools.ffn.gpu"
  std::vector<std::string> values;  ///< YAML scalars, as `--set path=value` takes them
};

/// Parses "path=v1,v2" or "path=lo:hi:step" (numbers; hi included when on the step). `where` names
/// the argument or file line in errors.
SweepAxis parse_sweep_axis(const std::string& path, const std::string& values, const SourceLocation& where);
/// The same from one `--param` argument "path=values".
SweepAxis parse_sweep_param(const std::string& argument);

struct SweepShard {
  int index = 1;  ///< 1-based
  int count = 1;
  bool holds(long point) const { return point % count == index - 1; }
};
/// Parses "I/N" with 1 ≤ I ≤ N.
SweepShard parse_sweep_shard(const std::string& text);

class SweepGrid {
 public:
  explicit SweepGrid(std::vector<SweepAxis> axes);
  long size() const { return size_; }
  const std::vector<SweepAxis>& axes() const { return axes_; }
  /// The value of each axis at `point` (0 ≤ point < size()).
  std::vector<std::string> values(long point) const;
  /// `--set` assignments of `point`: "path=value" per axis.
  std::vector<std::string> assignments(long point) const;

 private:
  std::vector<SweepAxis> axes_;
  long size_ = 1;
};

}  // namespace rlsim
