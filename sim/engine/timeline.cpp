// Timeline bookkeeping.
#include "sim/engine/timeline.h"

#include <cassert>

namespace rlsim {

int Timeline::add_track(Track track) {
  tracks_.push_back(std::move(track));
  return static_cast<int>(tracks_.size()) - 1;
}

void Timeline::record(int track, const std::string& state, double start_s, double end_s, int step) {
  assert(track >= 0 && static_cast<size_t>(track) < tracks_.size() && "record on an unknown track");
  assert(end_s >= start_s && "an interval cannot end before it starts");
  if (end_s <= start_s) return;
  intervals_.push_back(Interval{track, state, start_s, end_s, step});
}

}  // namespace rlsim
