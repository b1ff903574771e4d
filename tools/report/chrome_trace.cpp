// Streaming the Timeline into Chrome trace JSON.
#include "tools/report/chrome_trace.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <vector>

namespace rlsim {
namespace {

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

// What an event says about its state, rendered once per distinct state.
struct RenderedState {
  std::string name_and_category;  ///< `"name":"rollout","cat":"busy"`
  std::string state_arg;          ///< `,"state":` and the state's name (or empty)
};

RenderedState render(GpuState state, bool with_state_arg) {
  return {"\"name\":" + quoted(std::string(detail_name(state))) +
              ",\"cat\":" + quoted(std::string(enum_name(state.kind()))),
          with_state_arg ? ",\"state\":" + quoted(to_string(state)) : std::string()};
}

bool same_intervals(const std::vector<const Interval*>& a, const std::vector<const Interval*>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i]->state != b[i]->state || a[i]->start_s != b[i]->start_s || a[i]->end_s != b[i]->end_s ||
        a[i]->step != b[i]->step)
      return false;
  }
  return true;
}

// "instance 3 (rollout-node0-gpu6, rollout-node0-gpu7)"; past four GPUs the first and the last.
std::string set_label(const std::string& name, const std::vector<int>& members, const Timeline& timeline) {
  const auto gpu = [&](size_t i) { return timeline.tracks()[static_cast<size_t>(members[i])].name; };
  std::string label = name + " (";
  if (members.size() <= 4) {
    for (size_t i = 0; i < members.size(); ++i) label += (i ? ", " : "") + gpu(i);
  } else {
    label += std::to_string(members.size()) + " GPUs: " + gpu(0) + " … " + gpu(members.size() - 1);
  }
  return label + ")";
}

}  // namespace

double trace_micros(double seconds) { return std::round(seconds * 1e9) / 1e3; }

void append_micros(std::string& out, double micros) {
  // `micros` holds whole nanoseconds (trace_micros, or a difference of two), so printing it to three
  // decimals is printing those nanoseconds; done with integers, as printf("%.3f") would print them
  // (its rounding error is far below half a nanosecond for any simulated time), at a fraction of
  // printf's cost on traces of millions of events.
  const double nanos = std::round(micros * 1e3);
  if (!(std::fabs(nanos) < 9e15)) {  // beyond exact integers (or not finite): leave it to printf
    char buffer[400];
    const int n = std::snprintf(buffer, sizeof buffer, "%.3f", micros);
    out.append(buffer, static_cast<size_t>(n));
    return;
  }
  auto whole = static_cast<int64_t>(nanos);
  if (whole < 0 || (whole == 0 && std::signbit(micros))) out += '-';
  if (whole < 0) whole = -whole;
  char digits[24];
  const auto [end, error] = std::to_chars(digits, digits + sizeof digits, whole / 1000);
  out.append(digits, end);
  const auto fraction = static_cast<int>(whole % 1000);
  const char decimals[4] = {'.', static_cast<char>('0' + fraction / 100),
                            static_cast<char>('0' + fraction / 10 % 10),
                            static_cast<char>('0' + fraction % 10)};
  out.append(decimals, 4);
}

std::vector<TrackView> track_views(const Timeline& timeline, bool collapse_sets) {
  const size_t n = timeline.tracks().size();
  std::vector<TrackView> views(n);
  for (size_t t = 0; t < n; ++t) views[t].label = timeline.tracks()[t].name;
  if (!collapse_sets) return views;
  std::vector<std::vector<const Interval*>> intervals(n);
  for (const Interval& interval : timeline.intervals())
    intervals[static_cast<size_t>(interval.track)].push_back(&interval);
  std::vector<bool> taken(n, false);
  for (const TrackSet& set : timeline.track_sets()) {
    // Per pool (a set may span two: an AFD instance), the members collapse when all are identical.
    std::map<std::string, std::vector<int>> by_group;
    for (int track : set.tracks)
      by_group[timeline.tracks()[static_cast<size_t>(track)].group].push_back(track);
    for (const auto& [group, members] : by_group) {
      const auto first = static_cast<size_t>(members.front());
      bool identical = true;
      for (int member : members) {
        const auto m = static_cast<size_t>(member);
        identical = identical && !taken[m] && same_intervals(intervals[first], intervals[m]);
      }
      if (!identical) continue;
      for (int member : members) {
        taken[static_cast<size_t>(member)] = true;
        views[static_cast<size_t>(member)].shown = member == members.front();
      }
      views[first].label = set_label(set.name, members, timeline);
    }
  }
  return views;
}

void write_chrome_trace(std::ostream& stream, const Timeline& timeline, const ChromeTraceStyle& style) {
  stream << "{\"traceEvents\":[";
  TraceWriter writer(stream);
  std::string& out = writer.text();
  const std::vector<TrackView> views = track_views(timeline, style.collapse_track_sets);
  std::map<std::string, int> process_ids;
  std::vector<int> pid_of_track;
  for (size_t t = 0; t < timeline.tracks().size(); ++t) {
    const Track& track = timeline.tracks()[t];
    auto [it, inserted] = process_ids.emplace(track.group, static_cast<int>(process_ids.size()) + 1);
    if (inserted) {
      writer.begin_event();
      out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(it->second) +
             ",\"tid\":0,\"args\":{\"name\":" + quoted(style.process_name(track.group)) + "}}";
    }
    pid_of_track.push_back(it->second);
    if (!views[t].shown) continue;
    writer.begin_event();
    out += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + std::to_string(it->second) +
           ",\"tid\":" + std::to_string(t + 1) + ",\"args\":{\"name\":" + quoted(views[t].label) + "}}";
  }
  std::map<GpuState, RenderedState> rendered;
  const std::string index_key = quoted(style.index_key);
  for (const Interval& interval : timeline.intervals()) {
    if (!views[static_cast<size_t>(interval.track)].shown) continue;
    auto state = rendered.find(interval.state);
    if (state == rendered.end())
      state = rendered.emplace(interval.state, render(interval.state, style.state_arg)).first;
    writer.begin_event();
    out += '{';
    out += state->second.name_and_category;
    out += ",\"ph\":\"X\",\"ts\":";
    append_micros(out, trace_micros(interval.start_s));
    out += ",\"dur\":";
    // Duration from the rounded ends, so that ts + dur is the next event's ts exactly.
    append_micros(out, trace_micros(interval.end_s) - trace_micros(interval.start_s));
    out += ",\"pid\":" + std::to_string(pid_of_track[static_cast<size_t>(interval.track)]);
    out += ",\"tid\":" + std::to_string(interval.track + 1);
    out += ",\"args\":{" + index_key + ':' + std::to_string(interval.step);
    out += state->second.state_arg;
    out += "}}";
  }
  if (style.extra_events) style.extra_events(writer);
  out += "],\"displayTimeUnit\":\"ms\",\"otherData\":" + style.other_data.dump() + "}\n";
}

void write_instance_load_counters(TraceWriter& writer,
                                  const std::vector<std::vector<LoadSample>>& per_instance) {
  std::string& out = writer.text();
  for (size_t i = 0; i < per_instance.size(); ++i) {
    const std::string pid = std::to_string(kFirstInstancePid + static_cast<int>(i));
    writer.begin_event();
    out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + pid +
           ",\"tid\":0,\"args\":{\"name\":\"instance " + std::to_string(i) + "\"}}";
    // Appended piece by piece: three events per sample, millions of samples at scale.
    const std::string ts_pid_tail = ",\"pid\":" + pid + ",\"args\":{";
    std::string ts;
    for (const LoadSample& sample : per_instance[i]) {
      ts.clear();
      append_micros(ts, trace_micros(sample.time_s));
      writer.begin_event();
      out += "{\"name\":\"sequences\",\"ph\":\"C\",\"ts\":";
      out += ts;
      out += ts_pid_tail;
      out += "\"running\":";
      out += std::to_string(sample.running);
      out += ",\"waiting\":";
      out += std::to_string(sample.waiting);
      out += "}}";
      writer.begin_event();
      out += "{\"name\":\"kv_tokens\",\"ph\":\"C\",\"ts\":";
      out += ts;
      out += ts_pid_tail;
      out += "\"used\":";
      char used[40];
      out.append(used, static_cast<size_t>(std::snprintf(used, sizeof used, "%.0f", sample.kv_tokens)));
      out += "}}";
      writer.begin_event();
      out += "{\"name\":\"preemptions\",\"ph\":\"C\",\"ts\":";
      out += ts;
      out += ts_pid_tail;
      out += "\"sequences\":";
      out += std::to_string(sample.preemptions);
      out += "}}";
    }
  }
}

}  // namespace rlsim
