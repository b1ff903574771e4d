// Chrome trace (Perfetto, chrome://tracing) of a Timeline: one process per track group, one
// thread per track (or one per lockstep set of tracks whose intervals are identical: an
// instance's TP group), one complete ("X") event per interval named by its state (`busy:rollout`
// becomes name `rollout`, category `busy`). Written straight to the file as text (TraceWriter), not
// built as a JSON tree: a 1024-GPU step has ~10^5 intervals and the tree would cost more than the
// simulation.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "sim/engine/instance_load.h"
#include "sim/platform/timeline.h"
#include "tools/report/trace_writer.h"

namespace rlsim {

/// What `rlsim run` puts in trace.json beyond the default (--trace-gpus, --trace-requests).
struct TraceOptions {
  bool gpu_tracks = false;  ///< one track per GPU, also for GPUs that work in lockstep
  bool requests = false;    ///< per-request slices with flows between a trajectory's turns
};

struct ChromeTraceStyle {
  /// Process label for a track group ("pool rollout", "attention GPUs").
  std::function<std::string(const std::string& group)> process_name;
  /// Key under which each event's args carry its Interval::step ("step", "iteration").
  std::string index_key = "step";
  /// Also carry the full state string in each event's args.
  bool state_arg = false;
  /// One track per lockstep set (Timeline::track_sets: an instance's TP group, the trainer) whose
  /// members' intervals are identical, named by the set and its GPUs; false: one track per GPU.
  bool collapse_track_sets = true;
  /// Top-level "otherData" object (scenario, seed, ...).
  nlohmann::json other_data = nlohmann::json::object();
  /// More events (e.g. counter tracks), written after the intervals, each begun with
  /// TraceWriter::begin_event(); empty for none.
  std::function<void(TraceWriter&)> extra_events{};
};

/// Writes the whole trace file's text, newline-terminated, to `out`; timestamps in microseconds,
/// rounded to the nanosecond so files are stable and small.
void write_chrome_trace(std::ostream& out, const Timeline& timeline, const ChromeTraceStyle& style);

/// How a timeline track appears in the trace: under its own name, under its lockstep set's label
/// (the one member shown for the set), or not at all (a member the set's track stands for).
struct TrackView {
  std::string label;
  bool shown = true;
};
/// Per track of `timeline`: the sets whose members (within one pool) have identical intervals
/// collapse onto their first member, named by the set (a one-GPU instance too); a track belongs to
/// the first such set that holds it.
std::vector<TrackView> track_views(const Timeline& timeline, bool collapse_sets);

/// Seconds as trace microseconds, rounded to the nanosecond; appended with three decimals.
double trace_micros(double seconds);
void append_micros(std::string& out, double micros);

/// Process id of instance k's process ("instance k"): its counters and, optionally, its requests.
inline constexpr int kFirstInstancePid = 1000;

/// Counter tracks of inference instances, for ChromeTraceStyle::extra_events: one process per
/// instance ("instance k", pid kFirstInstancePid + k) with its running and waiting sequences, the
/// KV slots they hold and the sequences preempted so far, as sampled at its iteration boundaries
/// (one track per instance, not per GPU).
void write_instance_load_counters(TraceWriter& out, const std::vector<std::vector<LoadSample>>& per_instance);

}  // namespace rlsim
