// Timeline: what every resource (GPU, agent host, data-plane host) did when. Actors record
// intervals through it; metrics and the Chrome trace are derived from it afterwards, so nothing in
// the engine computes metrics inline. What a track does over an interval is a GpuState
// (sim/platform/gpu_state.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/platform/gpu_state.h"

namespace rlsim {

struct Track {
  std::string name;    ///< e.g. "rollout-node0-gpu3"
  std::string group;   ///< pool name, "agents" or "dataplane"
  bool is_gpu = true;  ///< GPU time counts toward bubbles, utilisation and cost
  double usd_per_hour = 0.0;
};

struct Interval {
  int track = 0;
  GpuState state;
  double start_s = 0.0;
  double end_s = 0.0;
  int step = 0;
};

/// One RL step's boundaries and phase durations (seconds).
struct StepRecord {
  int step = 0;
  double start_s = 0.0;
  double end_s = 0.0;
  double rollout_s = 0.0;
  double weight_sync_s = 0.0;
  double train_s = 0.0;
  double switch_s = 0.0;  ///< colocated: offload/onload between phases
  int samples = 0;
  int truncated = 0;  ///< samples whose last reply was cut at the length cap or the context limit
  double generated_tokens = 0.0;
  double staleness = 0.0;  ///< mean weight versions between generation and training, per token
};

/// One finished LLM call: which trajectory, turn and instance, its times and latency figures.
struct CallRecord {
  int trajectory = 0;  ///< trajectory (RL) or request (serve) id
  int turn = 0;
  int step = 0;
  int instance = 0;              ///< the instance that finished it
  int preemptions = 0;           ///< times it was preempted (recomputed, swapped or migrated)
  double submit_s = 0.0;         ///< the agent (client) sent it
  double prefill_start_s = 0.0;  ///< its first prefill started: queueing ended
  double first_token_s = 0.0;
  double finish_s = 0.0;
  double ttft_s = 0.0;  ///< first token - submit
  double tpot_s = 0.0;  ///< (finish - first token) / (output tokens - 1), or / 1 for one token
};

/// Tracks that work in lockstep as one unit (an inference instance's TP group, the trainer's GPUs):
/// the trace shows them as one track while their intervals are identical.
struct TrackSet {
  std::string name;  ///< e.g. "instance 3"
  std::vector<int> tracks;
};

class Timeline {
 public:
  int add_track(Track track);
  /// Records [start, end) in `state`; empty intervals are dropped.
  void record(int track, GpuState state, double start_s, double end_s, int step);
  void record_step(const StepRecord& step) { steps_.push_back(step); }
  /// Emits (state, start, end) pieces for one interval being split.
  using Emit = std::function<void(GpuState, double, double)>;
  /// Replaces every interval in `state` by the pieces `splitter(start, end, emit)` emits.
  void split_intervals(GpuState state, const std::function<void(double, double, const Emit&)>& splitter);
  /// Cuts the parts of `state` intervals that other intervals of the same track cover (a GPU that
  /// trains while its idle inference instance waits is training, not waiting).
  void yield_to_others(GpuState state);
  /// Leaves each track in one state at a time: where intervals overlap, the one whose state has
  /// the lowest `rank` keeps the time (ties: the earlier recorded).
  void resolve_overlaps(const std::function<int(GpuState)>& rank);
  /// Drops what was recorded after `end_s` (actors still winding down after the last step).
  void clip(double end_s);
  void record_call(const CallRecord& call) { calls_.push_back(call); }
  void add_track_set(TrackSet set) { track_sets_.push_back(std::move(set)); }

  const std::vector<Track>& tracks() const { return tracks_; }
  const std::vector<Interval>& intervals() const { return intervals_; }
  const std::vector<StepRecord>& steps() const { return steps_; }
  const std::vector<CallRecord>& calls() const { return calls_; }
  const std::vector<TrackSet>& track_sets() const { return track_sets_; }

 private:
  /// Removes from each interval that `yields` the spans of its track that `covers` intervals hold.
  void cut(const std::function<bool(const Interval&)>& covers,
           const std::function<bool(const Interval&)>& yields);

  std::vector<Track> tracks_;
  std::vector<int> last_interval_;  ///< per track: index of its latest interval, to merge contiguous ones
  std::vector<Interval> intervals_;
  std::vector<StepRecord> steps_;
  std::vector<CallRecord> calls_;
  std::vector<TrackSet> track_sets_;
};

}  // namespace rlsim
