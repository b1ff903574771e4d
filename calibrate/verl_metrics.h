// Reading a verl run's per-step metrics: its console log (lines `step:N - key:value - ...`, as
// verl's console logger prints them, with or without a Ray `(TaskRunner pid=…)` prefix, in either
// number format verl has used: `12.345` or Python's repr, numpy's `np.float64(12.3)` included), its
// file logger's JSON lines (`{"step": N, "data": {...}}`), or a CSV export with a `step` column and
// one column per metric named as verl names it (`timing_s/gen`, `response_length/mean`, ...).
// Old logs' `timing/` prefix reads as `timing_s/`. A step line with no timing (verl's step:0
// validation) is no step.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rlsim {

struct VerlStep {
  int step = 0;
  int line = 0;                          ///< 1-based line of the file it came from
  std::map<std::string, double> values;  ///< metric name (verl's) -> value
  /// The value of `key`, or `fallback` when the step does not have it.
  double value_or(const std::string& key, double fallback) const {
    const auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  bool has(const std::string& key) const { return values.count(key) > 0; }
};

struct VerlLog {
  std::string file;
  std::vector<VerlStep> steps;  ///< in step order
};

/// Reads `path` (format by content: a CSV header with a step column, JSON lines, else console
/// text). InputError (FILE:LINE:COL) on an unreadable file, a step that appears twice, a CSV cell
/// that is not a number, or no step with timings at all.
VerlLog read_verl_log(const std::string& path);
/// The same from text in memory (tests); `file` names it in messages.
VerlLog parse_verl_log(const std::string& text, const std::string& file);

}  // namespace rlsim
