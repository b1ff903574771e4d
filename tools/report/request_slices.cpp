// Laying out LLM calls as trace slices on non-overlapping lanes, with flows between turns.
#include "tools/report/request_slices.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <utility>

#include "tools/report/chrome_trace.h"

namespace rlsim {
namespace {

std::vector<size_t> submission_order(const std::vector<CallRecord>& calls) {
  std::vector<size_t> order(calls.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const CallRecord &x = calls[a], &y = calls[b];
    return std::tie(x.instance, x.submit_s, x.finish_s, x.trajectory, x.turn) <
           std::tie(y.instance, y.submit_s, y.finish_s, y.trajectory, y.turn);
  });
  return order;
}

std::string at(const CallRecord& call, int lane) {
  return ",\"pid\":" + std::to_string(kFirstInstancePid + call.instance) +
         ",\"tid\":" + std::to_string(lane + 1);
}

// One complete event from `from_s` to `to_s` (nothing when empty once rounded).
void slice(TraceWriter& writer, const std::string& name_and_args, double from_s, double to_s,
           const std::string& where) {
  const double from = trace_micros(from_s), to = trace_micros(to_s);
  if (to <= from) return;
  writer.begin_event();
  std::string& out = writer.text();
  out += "{\"name\":" + name_and_args + ",\"cat\":\"request\",\"ph\":\"X\",\"ts\":";
  append_micros(out, from);
  out += ",\"dur\":";
  append_micros(out, to - from);
  out += where + "}";
}

std::string number(double value) {
  char text[40];
  return std::string(text, static_cast<size_t>(std::snprintf(text, sizeof text, "%.6g", value)));
}

std::string call_name(const CallRecord& c, RequestNaming naming) {
  if (naming == RequestNaming::request) return "\"request " + std::to_string(c.trajectory) + "\"";
  return "\"trajectory " + std::to_string(c.trajectory) + " turn " + std::to_string(c.turn) + "\"";
}

// The flow event `phase` ("s" or "f") of flow `id`, bound to the slice around the call's midpoint.
void flow(TraceWriter& writer, const char* phase, long id, const CallRecord& call, int lane) {
  writer.begin_event();
  std::string& out = writer.text();
  out += "{\"name\":\"next turn\",\"cat\":\"trajectory\",\"ph\":\"";
  out += phase;
  out += "\",\"id\":" + std::to_string(id) + ",\"ts\":";
  append_micros(out, trace_micros(0.5 * (call.submit_s + call.finish_s)));
  if (phase[0] == 'f') out += ",\"bp\":\"e\"";
  out += at(call, lane) + "}";
}

}  // namespace

std::vector<int> request_lanes(const std::vector<CallRecord>& calls) {
  std::vector<int> lanes(calls.size(), 0);
  using Busy = std::pair<double, int>;  // (finish, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::set<int> free;
  int opened = 0, instance = -1;
  for (size_t i : submission_order(calls)) {
    const CallRecord& call = calls[i];
    if (call.instance != instance) {  // a new instance: its lanes start empty
      instance = call.instance;
      busy = {};
      free.clear();
      opened = 0;
    }
    while (!busy.empty() && busy.top().first <= call.submit_s) {
      free.insert(busy.top().second);
      busy.pop();
    }
    int lane = opened;
    if (free.empty()) {
      ++opened;
    } else {
      lane = *free.begin();
      free.erase(free.begin());
    }
    lanes[i] = lane;
    busy.emplace(call.finish_s, lane);
  }
  return lanes;
}

void write_request_slices(TraceWriter& writer, const std::vector<CallRecord>& calls, RequestNaming naming) {
  const std::vector<int> lanes = request_lanes(calls);
  std::set<std::pair<int, int>> named;  // (instance, lane) threads named so far
  for (size_t i : submission_order(calls)) {
    const CallRecord& c = calls[i];
    const std::string where = at(c, lanes[i]);
    if (named.emplace(c.instance, lanes[i]).second) {
      writer.begin_event();
      writer.text() += "{\"name\":\"thread_name\",\"ph\":\"M\"" + where + ",\"args\":{\"name\":\"requests " +
                       std::to_string(lanes[i]) + "\"}}";
    }
    const std::string args =
        ",\"args\":{\"trajectory\":" + std::to_string(c.trajectory) + ",\"turn\":" + std::to_string(c.turn) +
        ",\"step\":" + std::to_string(c.step) + ",\"ttft_ms\":" + number(1e3 * c.ttft_s) +
        ",\"tpot_ms\":" + number(1e3 * c.tpot_s) + ",\"preemptions\":" + std::to_string(c.preemptions) + "}";
    slice(writer, call_name(c, naming) + args, c.submit_s, c.finish_s, where);
    const double prefill_start = std::clamp(c.prefill_start_s, c.submit_s, c.first_token_s);
    slice(writer, "\"queue\"", c.submit_s, prefill_start, where);
    slice(writer, "\"prefill\"", prefill_start, c.first_token_s, where);
    slice(writer, "\"decode\"", c.first_token_s, c.finish_s, where);
  }
  if (naming == RequestNaming::trajectory_turn) {
    std::map<int, std::map<int, size_t>> turns;  // trajectory → turn → call
    for (size_t i = 0; i < calls.size(); ++i) turns[calls[i].trajectory][calls[i].turn] = i;
    long id = 0;
    for (const auto& [trajectory, by_turn] : turns) {
      for (auto it = by_turn.begin(); std::next(it) != by_turn.end(); ++it) {
        const size_t from = it->second, to = std::next(it)->second;
        flow(writer, "s", id, calls[from], lanes[from]);
        flow(writer, "f", id, calls[to], lanes[to]);
        ++id;
      }
    }
  }
}

}  // namespace rlsim
