// Timeline algebra tests: every bubble metric is computed from intervals after record() merged
// them and yield_to_others, resolve_overlaps, split_intervals and clip rewrote them, so each is
// checked here on hand-built tracks — overlapping, nested, touching and zero-length intervals —
// against the exact intervals (track, state, [start, end), step) it must leave, in order.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/platform/timeline.h"

using namespace rlsim;

namespace {

const GpuState kTrain = GpuState::busy(Phase::train);
const GpuState kIdle = GpuState::wait(WaitCause::idle);
const GpuState kFault = GpuState::wait(WaitCause::fault);
const GpuState kLongTail = GpuState::wait(WaitCause::long_tail);
const GpuState kWeights = GpuState::wait(WaitCause::rollout_waits_weights);
const GpuState kAgents = GpuState::wait(WaitCause::rollout_waits_agents);

std::string piece(int track, GpuState state, double start_s, double end_s, int step) {
  char text[160];
  std::snprintf(text, sizeof text, "track %d %s [%g, %g) step %d", track, to_string(state).c_str(), start_s,
                end_s, step);
  return text;
}

/// The timeline's intervals, in its order, as piece() writes them.
std::vector<std::string> pieces(const Timeline& timeline) {
  std::vector<std::string> out;
  for (const Interval& i : timeline.intervals())
    out.push_back(piece(i.track, i.state, i.start_s, i.end_s, i.step));
  return out;
}

/// Seconds the intervals of `track` hold.
double total_s(const Timeline& timeline, int track) {
  double total = 0.0;
  for (const Interval& i : timeline.intervals()) {
    if (i.track == track) total += i.end_s - i.start_s;
  }
  return total;
}

Timeline two_tracks() {
  Timeline timeline;
  timeline.add_track(Track{"a", "pool", true, 1.0});
  timeline.add_track(Track{"b", "pool", true, 1.0});
  return timeline;
}

}  // namespace

TEST_CASE("tracks are numbered in the order they are added") {
  Timeline timeline;
  CHECK(timeline.add_track(Track{"a", "pool", true, 1.0}) == 0);
  CHECK(timeline.add_track(Track{"b", "agents", false, 0.0}) == 1);
  REQUIRE(timeline.tracks().size() == 2);
  CHECK(timeline.tracks()[1].group == "agents");
  CHECK_FALSE(timeline.tracks()[1].is_gpu);
}

TEST_CASE("record merges back-to-back intervals of one state and step, and drops empty ones") {
  Timeline t = two_tracks();
  t.record(0, kTrain, 0, 1, 0);
  t.record(0, kTrain, 1, 2, 0);  // continues the previous one
  t.record(1, kTrain, 2, 3, 0);  // another track in between does not stop the merge
  t.record(0, kTrain, 2, 2, 0);  // zero length: dropped
  t.record(0, kTrain, 2, 3, 0);
  t.record(0, kTrain, 3, 4, 1);  // touching, but another step
  t.record(0, kIdle, 4, 5, 1);   // touching, but another state
  t.record(0, kTrain, 5, 6, 1);  // the track's latest interval is the idle one: a new interval
  t.record(0, kTrain, 7, 8, 1);  // a gap
  CHECK(pieces(t) == std::vector<std::string>{
                         piece(0, kTrain, 0, 3, 0),
                         piece(1, kTrain, 2, 3, 0),
                         piece(0, kTrain, 3, 4, 1),
                         piece(0, kIdle, 4, 5, 1),
                         piece(0, kTrain, 5, 6, 1),
                         piece(0, kTrain, 7, 8, 1),
                     });
  CHECK(total_s(t, 0) == 7.0);
}

TEST_CASE("split_intervals replaces each interval of one state by the pieces emitted for it") {
  Timeline t = two_tracks();
  t.record(0, kIdle, 0, 10, 0);
  t.record(0, kTrain, 10, 12, 0);
  t.record(1, kIdle, 5, 6, 1);
  std::vector<std::pair<double, double>> asked;
  t.split_intervals(kIdle, [&](double start, double end, const Timeline::Emit& emit) {
    asked.emplace_back(start, end);
    const double middle = (start + end) / 2;
    emit(kLongTail, start, middle);
    emit(kWeights, middle, end);
    emit(kAgents, end, end);  // zero length: dropped
  });
  CHECK(asked == std::vector<std::pair<double, double>>{{0, 10}, {5, 6}});
  CHECK(pieces(t) == std::vector<std::string>{
                         piece(0, kLongTail, 0, 5, 0),
                         piece(0, kWeights, 5, 10, 0),
                         piece(0, kTrain, 10, 12, 0),
                         piece(1, kLongTail, 5, 5.5, 1),
                         piece(1, kWeights, 5.5, 6, 1),
                     });
}

TEST_CASE("yield_to_others cuts a state wherever another state of the same track holds the time") {
  Timeline t = two_tracks();
  t.record(0, kIdle, 0, 10, 0);
  t.record(0, kTrain, 2, 3, 0);
  t.record(0, kTrain, 3, 4, 1);                 // touches [2, 3): one covered span [2, 4)
  t.record(0, GpuState::switching(), 6, 7, 0);  // nested in the idle interval
  t.record(0, kTrain, 9, 12, 0);                // overlaps its end
  t.record(1, kTrain, 0, 10, 0);
  t.record(1, kIdle, 4, 5, 0);    // wholly covered: disappears
  t.record(0, kIdle, 12, 13, 1);  // touches [9, 12) only: stays whole
  t.yield_to_others(kIdle);
  CHECK(pieces(t) == std::vector<std::string>{
                         piece(0, kIdle, 0, 2, 0),
                         piece(0, kIdle, 4, 6, 0),
                         piece(0, kIdle, 7, 9, 0),
                         piece(0, kTrain, 2, 3, 0),
                         piece(0, kTrain, 3, 4, 1),
                         piece(0, GpuState::switching(), 6, 7, 0),
                         piece(0, kTrain, 9, 12, 0),
                         piece(1, kTrain, 0, 10, 0),
                         piece(0, kIdle, 12, 13, 1),
                     });
  CHECK(total_s(t, 0) == 13.0);  // no time left counted twice
  CHECK(total_s(t, 1) == 10.0);
}

TEST_CASE("yield_to_others leaves overlapping intervals of the yielding state alone") {
  Timeline t = two_tracks();
  t.record(0, kIdle, 0, 4, 0);
  t.record(0, kIdle, 2, 6, 1);
  t.record(0, kFault, 5, 8, 1);
  t.yield_to_others(kIdle);
  CHECK(pieces(t) == std::vector<std::string>{
                         piece(0, kIdle, 0, 4, 0),
                         piece(0, kIdle, 2, 5, 1),
                         piece(0, kFault, 5, 8, 1),
                     });
}

TEST_CASE(
    "resolve_overlaps gives each instant of a track to the lowest-ranked state, ties to the first recorded") {
  auto rank = [](GpuState state) {
    if (state == GpuState::down()) return 0;
    if (state.is(StateKind::busy)) return 1;
    return 2;
  };
  Timeline t = two_tracks();
  t.record(0, kFault, 0, 10, 0);
  t.record(0, GpuState::down(), 2, 5, -1);  // nested in the wait
  t.record(0, kTrain, 4, 8, 0);             // overlaps the down time's end
  t.record(0, kTrain, 8, 9, 1);             // touches it
  t.record(1, kFault, 0, 3, 0);
  t.record(1, kFault, 1, 4, 1);  // same rank: the earlier one keeps [1, 3)
  t.resolve_overlaps(rank);
  // Sorted by start (stable: equal starts keep the order in which they were kept).
  CHECK(pieces(t) == std::vector<std::string>{
                         piece(0, kFault, 0, 2, 0),
                         piece(1, kFault, 0, 3, 0),
                         piece(0, GpuState::down(), 2, 5, -1),
                         piece(1, kFault, 3, 4, 1),
                         piece(0, kTrain, 5, 8, 0),
                         piece(0, kTrain, 8, 9, 1),
                         piece(0, kFault, 9, 10, 0),
                     });
  CHECK(total_s(t, 0) == 10.0);  // the union of what was recorded, once
  CHECK(total_s(t, 1) == 4.0);
}

TEST_CASE("resolve_overlaps keeps disjoint and touching intervals as they are") {
  Timeline t = two_tracks();
  t.record(0, kTrain, 0, 1, 0);
  t.record(0, kIdle, 1, 2, 0);
  t.record(1, kIdle, 0, 2, 0);
  t.resolve_overlaps([](GpuState state) { return state.is(StateKind::busy) ? 0 : 1; });
  // Nothing is cut; only the order changes, by start.
  CHECK(pieces(t) == std::vector<std::string>{
                         piece(0, kTrain, 0, 1, 0),
                         piece(1, kIdle, 0, 2, 0),
                         piece(0, kIdle, 1, 2, 0),
                     });
}

TEST_CASE("clip drops what starts at or after the end and shortens what crosses it") {
  Timeline t = two_tracks();
  t.record(0, kTrain, 0, 5, 0);  // ends exactly at the end: kept whole
  t.record(0, kIdle, 5, 7, 0);   // starts exactly at the end: dropped
  t.record(1, kTrain, 2, 8, 0);  // crosses it
  t.record(1, kIdle, 8, 9, 0);
  t.clip(5);
  CHECK(pieces(t) == std::vector<std::string>{
                         piece(0, kTrain, 0, 5, 0),
                         piece(1, kTrain, 2, 5, 0),
                     });
  // Recording after a rewrite starts a new interval rather than extending a moved one.
  t.record(1, kTrain, 5, 6, 0);
  CHECK(pieces(t).back() == piece(1, kTrain, 5, 6, 0));
  CHECK(t.intervals().size() == 3);
}

TEST_CASE("clip past the last interval changes nothing") {
  Timeline t = two_tracks();
  t.record(0, kTrain, 0, 5, 0);
  t.record(1, kIdle, 1, 2, 3);
  const std::vector<std::string> before = pieces(t);
  t.clip(100);
  CHECK(pieces(t) == before);
}
