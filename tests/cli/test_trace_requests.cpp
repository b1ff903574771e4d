// `rlsim run --trace-requests`: every LLM call is a slice in trace.json on its instance, at the
// times the ledger (RL) or requests.csv (serve) records, with its queue, prefill and decode parts
// nested inside, on lanes whose slices never overlap, and arrows between a trajectory's turns. Also
// the lane layout on its own, the step tags at step boundaries, and AFD runs refusing the flag.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "tests/cli/cli_support.h"
#include "tools/report/request_slices.h"

using namespace rlsim::test;
using nlohmann::json;

namespace {

struct Slice {
  double start_us, end_us;
};

/// The X events of each (pid, tid) in the instance processes (pid ≥ 1000), by name.
struct RequestTrace {
  std::map<std::string, std::tuple<int, int, Slice>> calls;  ///< by call name: pid, tid, slice
  std::map<std::pair<int, int>, std::vector<std::pair<std::string, Slice>>> by_lane;
  int flows_out = 0, flows_in = 0;
};

RequestTrace request_trace(const std::filesystem::path& file) {
  RequestTrace t;
  const json trace = json::parse(slurp(file));
  for (const auto& e : trace["traceEvents"]) {
    if (e["pid"].get<int>() < 1000) continue;
    if (e["ph"] == "s") ++t.flows_out;
    if (e["ph"] == "f") ++t.flows_in;
    if (e["ph"] != "X") continue;
    const double ts = e["ts"].get<double>();
    const Slice slice{ts, ts + e["dur"].get<double>()};
    const std::string name = e["name"];
    const std::pair<int, int> lane{e["pid"].get<int>(), e["tid"].get<int>()};
    t.by_lane[lane].emplace_back(name, slice);
    if (name.rfind("trajectory ", 0) == 0 || name.rfind("request ", 0) == 0)
      t.calls[name] = {lane.first, lane.second, slice};
  }
  return t;
}

/// On every lane the calls' slices do not overlap and each part lies inside the call before it.
void check_lanes(const RequestTrace& t) {
  for (const auto& [lane, slices] : t.by_lane) {
    double last_call_end = -1.0;
    Slice call{0.0, 0.0};
    for (const auto& [name, slice] : slices) {
      INFO("pid " << lane.first << " tid " << lane.second << " " << name);
      if (name == "queue" || name == "prefill" || name == "decode") {
        CHECK(slice.start_us >= call.start_us - 1e-6);
        CHECK(slice.end_us <= call.end_us + 1e-6);
      } else {
        CHECK(slice.start_us >= last_call_end - 1e-6);
        last_call_end = slice.end_us;
        call = slice;
      }
    }
  }
}

}  // namespace

TEST_CASE("request lanes: overlapping calls of an instance take separate lanes, the lowest free first") {
  using rlsim::CallRecord;
  const auto call = [](int instance, double submit, double finish) {
    CallRecord c;
    c.instance = instance;
    c.submit_s = submit;
    c.finish_s = finish;
    return c;
  };
  const std::vector<CallRecord> calls{call(0, 0.0, 10.0), call(0, 1.0, 3.0), call(0, 2.0, 5.0),
                                      call(0, 4.0, 6.0),  call(1, 1.0, 2.0), call(0, 10.0, 11.0)};
  // Lane 1 frees at 3 and is taken at 4; lane 0 frees at 10 and is taken again at 10 (touching
  // slices do not overlap); instance 1 starts its own lanes.
  CHECK(rlsim::request_lanes(calls) == std::vector<int>{0, 1, 2, 1, 0, 0});
}

TEST_CASE("run with --trace-requests: RL calls as slices at the ledger's times, turns linked by flows") {
  const auto out = scratch_dir("trace-requests") / "out";
  const CliResult r = run_rlsim(
      "run scenarios/agentic.yaml --set workload.steps=1 --set cluster.dataplane.ledger=true "
      "--trace-requests --out '" +
      out.string() + "'");
  REQUIRE(r.exit_code == 0);
  const RequestTrace t = request_trace(out / "trace.json");
  std::istringstream lines(slurp(out / "trajectories.jsonl"));
  std::string line;
  std::set<int> trajectories;
  size_t calls = 0;
  while (std::getline(lines, line)) {
    const json c = json::parse(line);
    ++calls;
    trajectories.insert(c["trajectory"].get<int>());
    const std::string name = "trajectory " + std::to_string(c["trajectory"].get<int>()) + " turn " +
                             std::to_string(c["turn"].get<int>());
    INFO(name);
    REQUIRE(t.calls.count(name) == 1);
    const auto& [pid, tid, slice] = t.calls.at(name);
    CHECK(pid == 1000 + c["instance"].get<int>());
    CHECK(slice.start_us == Approx(1e6 * c["submit_s"].get<double>()).margin(0.002));
    CHECK(slice.end_us == Approx(1e6 * c["finish_s"].get<double>()).margin(0.002));
  }
  CHECK(calls == 16 * 8 * 8);  // prompts × samples × turns
  CHECK(t.calls.size() == calls);
  // One arrow from each turn to the next: turns - 1 per trajectory.
  CHECK(t.flows_out == static_cast<int>(calls - trajectories.size()));
  CHECK(t.flows_in == t.flows_out);
  check_lanes(t);
}

TEST_CASE("run with --trace-requests: serving requests as slices at requests.csv's times, AFD runs refused") {
  const auto out = scratch_dir("trace-requests-serve") / "out";
  REQUIRE(
      run_rlsim("run scenarios/serve-llama3-70b.yaml --set workload.requests=60 --trace-requests --out '" +
                out.string() + "'")
          .exit_code == 0);
  const RequestTrace t = request_trace(out / "trace.json");
  CHECK(t.calls.size() == 60);
  CHECK(t.flows_out == 0);  // single-call requests: no turns to link
  std::istringstream csv(slurp(out / "requests.csv"));
  std::string line;
  std::getline(csv, line);  // header
  int rows = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() == 10);
    CHECK(std::stod(cells[9]) == Approx(0.0108));  // api_server_s: the default engine preset's
    const auto& [pid, tid, slice] = t.calls.at("request " + cells[0]);
    CHECK(pid == 1000 + std::stoi(cells[1]));
    CHECK(slice.start_us == Approx(1e6 * std::stod(cells[4])).margin(0.002));
    CHECK(slice.end_us == Approx(1e6 * std::stod(cells[7])).margin(0.002));
    ++rows;
  }
  CHECK(rows == 60);
  check_lanes(t);

  const auto afd = scratch_dir("trace-requests-afd") / "out";
  const CliResult refused =
      run_rlsim("run scenarios/afd-step3.yaml --trace-requests --out '" + afd.string() + "'");
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--trace-requests") && Catch::Contains("kind afd"));
  CHECK_FALSE(std::filesystem::exists(afd));
}

TEST_CASE("trace spans of an instance idle across a step boundary carry each step's own number") {
  // Disaggregated: after step k's rollout the instances idle (waiting for weights) until step
  // k+1 launches; the idle before the launch is step k's, the work after it step k+1's.
  const auto out = scratch_dir("trace-steps") / "out";
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --set workload.steps=3 --out '" + out.string() + "'")
              .exit_code == 0);
  const json metrics = json::parse(slurp(out / "metrics.json"));
  std::vector<std::pair<double, double>> steps;  // [start, end) in µs
  for (const auto& s : metrics["per_step"])
    steps.emplace_back(1e6 * s["start_s"].get<double>(), 1e6 * s["end_s"].get<double>());
  REQUIRE(steps.size() == 3);
  int rollout_spans = 0;
  const json trace = json::parse(slurp(out / "trace.json"));
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X" || e["pid"] != 1) continue;  // pool rollout
    ++rollout_spans;
    const int step = e["args"]["step"].get<int>();
    REQUIRE(step >= 0);
    REQUIRE(step < 3);
    INFO(e.dump());
    // Each span lies within its step's time (a step starts when its rollout launches); after the
    // last step the instances take in the final weights, which the run does not count as a step.
    CHECK(e["ts"].get<double>() >= steps[static_cast<size_t>(step)].first - 0.002);
    if (step < 2)
      CHECK(e["ts"].get<double>() + e["dur"].get<double>() <=
            steps[static_cast<size_t>(step)].second + 0.002);
  }
  CHECK(rollout_spans > 0);
}
