// Parsing sweep axes and shards, and numbering grid points.
#include "tools/sweep/sweep_grid.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

namespace rlsim {
namespace {

constexpr long kMaxPoints = 10'000'000;

bool parse_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(value);
}

std::string range_value(double value, bool whole) {
  if (whole) return std::to_string(std::llround(value));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream stream(text);
  while (std::getline(stream, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

/// `values` split at the commas outside YAML's flow brackets, so a value may be a mapping or a list
/// (`500,{uniform: {min: 500, max: 525}}` is two values); an unclosed or stray bracket leaves the
/// text to the YAML parser, which says what is wrong with it.
std::vector<std::string> split_values(const std::string& values) {
  if (values.empty()) return {};
  std::vector<std::string> parts(1);
  int depth = 0;
  for (const char c : values) {
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

}  // namespace

SweepAxis parse_sweep_axis(const std::string& path, const std::string& values, const SourceLocation& where) {
  if (path.empty()) throw InputError(where, "a sweep parameter needs a field path before '='");
  SweepAxis axis{path, {}};
  // lo:hi:step, unless the colons are a YAML mapping's.
  const bool flow = values.find_first_of("{[") != std::string::npos;
  const auto range = split(values, ':');
  if (!flow && range.size() == 3) {
    double lo = 0, hi = 0, step = 0;
    if (!parse_number(range[0], lo) || !parse_number(range[1], hi) || !parse_number(range[2], step)) {
      throw InputError(where, "a range is lo:hi:step with numbers, found '" + values + "'");
    }
    if (!(step > 0.0) || hi < lo)
      throw InputError(where, "a range needs lo ≤ hi and a positive step, found '" + values + "'");
    const double count = std::floor((hi - lo) / step + 1e-9) + 1.0;
    if (count > kMaxPoints) throw InputError(where, "the range '" + values + "' has too many values");
    const bool whole = lo == std::round(lo) && step == std::round(step);
    for (long k = 0; k < static_cast<long>(count); ++k)
      axis.values.push_back(range_value(lo + k * step, whole));
    return axis;
  }
  for (const auto& value : split_values(values)) {
    if (value.empty())
      throw InputError(where, "empty value in '" + values + "' for sweep parameter '" + path + "'");
    axis.values.push_back(value);
  }
  if (axis.values.empty()) throw InputError(where, "sweep parameter '" + path + "' has no values");
  return axis;
}

SweepAxis parse_sweep_param(const std::string& argument) {
  const SourceLocation where{"--param " + argument, 1, 1};
  const auto eq = argument.find('=');
  if (eq == std::string::npos)
    throw InputError(where, "expected --param path.to.field=v1,v2,… or =lo:hi:step");
  return parse_sweep_axis(argument.substr(0, eq), argument.substr(eq + 1), where);
}

SweepShard parse_sweep_shard(const std::string& text) {
  const SourceLocation where{"--shard " + text, 1, 1};
  const auto slash = text.find('/');
  SweepShard shard;
  try {
    size_t used = 0;
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    shard.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("junk");
    shard.count = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument("junk");
  } catch (const std::exception&) {
    throw InputError(where, "expected --shard I/N, e.g. --shard 2/8");
  }
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) {
    throw InputError(where, "--shard I/N needs 1 ≤ I ≤ N, found " + text);
  }
  return shard;
}

SweepGrid::SweepGrid(std::vector<SweepAxis> axes) : axes_(std::move(axes)) {
  std::set<std::string> paths;
  for (const auto& axis : axes_) {
    // A second axis on one field would label rows with values that were never simulated.
    if (!paths.insert(axis.path).second) {
      throw InputError({"--param " + axis.path, 1, 1},
                       "'" + axis.path + "' is swept twice; give all its values in one --param");
    }
    std::set<std::string> values;
    for (const auto& value : axis.values) {
      if (!values.insert(value).second)
        throw InputError({"--param " + axis.path, 1, 1},
                         "value '" + value + "' of '" + axis.path + "' is listed twice");
    }
    if (size_ > kMaxPoints / static_cast<long>(axis.values.size())) {
      throw InputError({"--param " + axis.path, 1, 1},
                       "the sweep grid has more than " + std::to_string(kMaxPoints) + " points");
    }
    size_ *= static_cast<long>(axis.values.size());
  }
}

std::vector<std::string> SweepGrid::values(long point) const {
  std::vector<std::string> out(axes_.size());
  for (size_t a = axes_.size(); a-- > 0;) {
    const long n = static_cast<long>(axes_[a].values.size());
    out[a] = axes_[a].values[static_cast<size_t>(point % n)];
    point /= n;
  }
  return out;
}

std::vector<std::string> SweepGrid::assignments(long point) const {
  std::vector<std::string> out;
  const auto point_values = values(point);
  for (size_t a = 0; a < axes_.size(); ++a) out.push_back(axes_[a].path + "=" + point_values[a]);
  return out;
}

}  // namespace rlsim
