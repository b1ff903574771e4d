// Timeline bookkeeping.
#include "sim/platform/timeline.h"

#include <algorithm>
#include <cassert>

namespace rlsim {

int Timeline::add_track(Track track) {
  tracks_.push_back(std::move(track));
  last_interval_.push_back(-1);
  return static_cast<int>(tracks_.size()) - 1;
}

void Timeline::record(int track, GpuState state, double start_s, double end_s, int step) {
  assert(track >= 0 && static_cast<size_t>(track) < tracks_.size() && "record on an unknown track");
  assert(end_s >= start_s && "an interval cannot end before it starts");
  if (end_s <= start_s) return;
  // Back-to-back intervals in the same state and step are one span (keeps traces small).
  const int last = last_interval_[static_cast<size_t>(track)];
  if (last >= 0) {
    Interval& previous = intervals_[static_cast<size_t>(last)];
    if (previous.state == state && previous.step == step && previous.end_s == start_s) {
      previous.end_s = end_s;
      return;
    }
  }
  last_interval_[static_cast<size_t>(track)] = static_cast<int>(intervals_.size());
  intervals_.push_back(Interval{track, state, start_s, end_s, step});
}

void Timeline::split_intervals(GpuState state,
                               const std::function<void(double, double, const Emit&)>& splitter) {
  std::vector<Interval> result;
  result.reserve(intervals_.size());
  for (const Interval& interval : intervals_) {
    if (interval.state != state) {
      result.push_back(interval);
      continue;
    }
    splitter(interval.start_s, interval.end_s, [&](GpuState piece, double start, double end) {
      if (end > start) result.push_back(Interval{interval.track, piece, start, end, interval.step});
    });
  }
  intervals_ = std::move(result);
  std::fill(last_interval_.begin(), last_interval_.end(), -1);
}

void Timeline::yield_to_others(GpuState state) {
  cut([&](const Interval& i) { return i.state != state; },
      [&](const Interval& i) { return i.state == state; });
}

void Timeline::resolve_overlaps(const std::function<int(GpuState)>& rank) {
  std::vector<size_t> order(intervals_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rank(intervals_[a].state) < rank(intervals_[b].state); });
  // Per track, the disjoint spans already taken, sorted by start.
  std::vector<std::vector<std::pair<double, double>>> taken(tracks_.size());
  std::vector<Interval> result;
  result.reserve(intervals_.size());
  for (size_t index : order) {
    const Interval& i = intervals_[index];
    auto& spans = taken[static_cast<size_t>(i.track)];
    std::vector<std::pair<double, double>> pieces;
    double from = i.start_s;
    auto it = std::lower_bound(spans.begin(), spans.end(), std::make_pair(i.start_s, i.start_s),
                               [](const auto& a, const auto& b) { return a.second <= b.first; });
    for (; it != spans.end() && it->first < i.end_s; ++it) {
      if (it->first > from) pieces.emplace_back(from, it->first);
      from = std::max(from, it->second);
    }
    if (from < i.end_s) pieces.emplace_back(from, i.end_s);
    for (const auto& piece : pieces) {
      result.push_back(Interval{i.track, i.state, piece.first, piece.second, i.step});
      spans.insert(std::upper_bound(spans.begin(), spans.end(), piece), piece);
    }
  }
  std::stable_sort(result.begin(), result.end(),
                   [](const Interval& a, const Interval& b) { return a.start_s < b.start_s; });
  intervals_ = std::move(result);
  std::fill(last_interval_.begin(), last_interval_.end(), -1);
}

void Timeline::clip(double end_s) {
  std::vector<Interval> kept;
  kept.reserve(intervals_.size());
  for (Interval i : intervals_) {
    if (i.start_s >= end_s) continue;
    i.end_s = std::min(i.end_s, end_s);
    kept.push_back(i);
  }
  intervals_ = std::move(kept);
  std::fill(last_interval_.begin(), last_interval_.end(), -1);
}

void Timeline::cut(const std::function<bool(const Interval&)>& covers,
                   const std::function<bool(const Interval&)>& yields) {
  // Per track, the spans of covering intervals, merged and sorted.
  std::vector<std::vector<std::pair<double, double>>> covered(tracks_.size());
  for (const Interval& i : intervals_) {
    if (covers(i)) covered[static_cast<size_t>(i.track)].emplace_back(i.start_s, i.end_s);
  }
  for (auto& spans : covered) {
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& span : spans) {
      if (!merged.empty() && span.first <= merged.back().second) {
        merged.back().second = std::max(merged.back().second, span.second);
      } else {
        merged.push_back(span);
      }
    }
    spans = std::move(merged);
  }
  // A yielding interval, minus its track's covered spans.
  std::vector<Interval> result;
  result.reserve(intervals_.size());
  for (const Interval& i : intervals_) {
    if (!yields(i)) {
      result.push_back(i);
      continue;
    }
    const auto& spans = covered[static_cast<size_t>(i.track)];
    double from = i.start_s;
    auto it = std::lower_bound(spans.begin(), spans.end(), std::make_pair(i.start_s, i.start_s),
                               [](const auto& a, const auto& b) { return a.second < b.first; });
    for (; it != spans.end() && it->first < i.end_s; ++it) {
      if (it->first > from) result.push_back(Interval{i.track, i.state, from, it->first, i.step});
      from = std::max(from, it->second);
    }
    if (from < i.end_s) result.push_back(Interval{i.track, i.state, from, i.end_s, i.step});
  }
  intervals_ = std::move(result);
  std::fill(last_interval_.begin(), last_interval_.end(), -1);
}

}  // namespace rlsim
