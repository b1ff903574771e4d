// Streaming the Timeline into Chrome trace JSON.
#include "tools/report/chrome_trace.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace rlsim {
namespace {

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

double micros(double seconds) { return std::round(seconds * 1e9) / 1e3; }

// Three decimals: the nanosecond, exactly as rounded.
void append_micros(std::string& out, double micros) {
  char buffer[40];
  const int n = std::snprintf(buffer, sizeof buffer, "%.3f", micros);
  out.append(buffer, static_cast<size_t>(n));
}

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

}  // namespace

std::string chrome_trace(const Timeline& timeline, const ChromeTraceStyle& style) {
  std::string out = "{\"traceEvents\":[";
  bool first = true;
  auto begin_event = [&]() {
    if (!first) out += ',';
    first = false;
  };
  std::map<std::string, int> process_ids;
  std::vector<int> pid_of_track;
  for (size_t t = 0; t < timeline.tracks().size(); ++t) {
    const Track& track = timeline.tracks()[t];
    auto [it, inserted] = process_ids.emplace(track.group, static_cast<int>(process_ids.size()) + 1);
    if (inserted) {
      begin_event();
      out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(it->second) +
             ",\"tid\":0,\"args\":{\"name\":" + quoted(style.process_name(track.group)) + "}}";
    }
    pid_of_track.push_back(it->second);
    begin_event();
    out += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + std::to_string(it->second) +
           ",\"tid\":" + std::to_string(t + 1) + ",\"args\":{\"name\":" + quoted(track.name) + "}}";
  }
  std::map<GpuState, RenderedState> rendered;
  const std::string index_key = quoted(style.index_key);
  for (const Interval& interval : timeline.intervals()) {
    auto state = rendered.find(interval.state);
    if (state == rendered.end())
      state = rendered.emplace(interval.state, render(interval.state, style.state_arg)).first;
    begin_event();
    out += '{';
    out += state->second.name_and_category;
    out += ",\"ph\":\"X\",\"ts\":";
    append_micros(out, micros(interval.start_s));
    out += ",\"dur\":";
    // Duration from the rounded ends, so that ts + dur is the next event's ts exactly.
    append_micros(out, micros(interval.end_s) - micros(interval.start_s));
    out += ",\"pid\":" + std::to_string(pid_of_track[static_cast<size_t>(interval.track)]);
    out += ",\"tid\":" + std::to_string(interval.track + 1);
    out += ",\"args\":{" + index_key + ':' + std::to_string(interval.step);
    out += state->second.state_arg;
    out += "}}";
  }
  if (!style.extra_events.empty()) {
    begin_event();
    out += style.extra_events;
  }
  out += "],\"displayTimeUnit\":\"ms\",\"otherData\":" + style.other_data.dump() + "}\n";
  return out;
}

std::string instance_load_counters(const std::vector<std::vector<LoadSample>>& per_instance) {
  const int first_pid = 1000;
  std::string out;
  for (size_t i = 0; i < per_instance.size(); ++i) {
    const std::string pid = std::to_string(first_pid + static_cast<int>(i));
    if (!out.empty()) out += ',';
    out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + pid +
           ",\"tid\":0,\"args\":{\"name\":\"instance " + std::to_string(i) + " load\"}}";
    for (const LoadSample& sample : per_instance[i]) {
      std::string ts;
      append_micros(ts, micros(sample.time_s));
      out += ",{\"name\":\"sequences\",\"ph\":\"C\",\"ts\":" + ts + ",\"pid\":" + pid +
             ",\"args\":{\"running\":" + std::to_string(sample.running) +
             ",\"waiting\":" + std::to_string(sample.waiting) + "}}";
      out +=
          ",{\"name\":\"kv_tokens\",\"ph\":\"C\",\"ts\":" + ts + ",\"pid\":" + pid + ",\"args\":{\"used\":";
      char used[40];
      out.append(used, static_cast<size_t>(std::snprintf(used, sizeof used, "%.0f", sample.kv_tokens)));
      out += "}}";
    }
  }
  return out;
}

}  // namespace rlsim
