// Chrome trace (Perfetto, chrome://tracing) of a Timeline: one process per track group, one
// thread per track, one complete ("X") event per interval named by its state (`busy:rollout`
// becomes name `rollout`, category `busy`). Written straight into a string, not built as a JSON
// tree: a 1024-GPU step has ~10^5 intervals and the tree would cost more than the simulation.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/engine/instance_load.h"
#include "sim/platform/timeline.h"

namespace rlsim {

struct ChromeTraceStyle {
  /// Process label for a track group ("pool rollout", "attention GPUs").
  std::function<std::string(const std::string& group)> process_name;
  /// Key under which each event's args carry its Interval::step ("step", "iteration").
  std::string index_key = "step";
  /// Also carry the full state string in each event's args.
  bool state_arg = false;
  /// Top-level "otherData" object (scenario, seed, ...).
  nlohmann::json other_data = nlohmann::json::object();
  /// More events, already rendered as JSON objects separated by commas (e.g. counter tracks),
  /// written after the intervals; empty for none.
  std::string extra_events{};
};

/// The whole trace file's text, newline-terminated; timestamps in microseconds, rounded to the
/// nanosecond so files are stable and small.
std::string chrome_trace(const Timeline& timeline, const ChromeTraceStyle& style);

/// Counter tracks of inference instances, for ChromeTraceStyle::extra_events: one process per
/// instance ("instance k load", pids from 1000) with its running and waiting sequences and the KV
/// slots they hold, as sampled at its iteration boundaries (one track per instance, not per GPU).
std::string instance_load_counters(const std::vector<std::vector<LoadSample>>& per_instance);

}  // namespace rlsim
