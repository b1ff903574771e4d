// Recorded trajectories for RL replay (sim/scenario/trajectory_replay_reader.h): one trajectory
// per line, or a ledger's calls grouped by trajectory with tool latencies from the gaps between
// calls; errors at FILE:LINE:COL. Then sample_step replays them by trajectory id, context growing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "sim/engine/workload.h"
#include "sim/scenario/trajectory_replay_reader.h"

using namespace rlsim;

namespace {

std::string write_jsonl(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("rlsim-replay-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

std::string read_error(const std::string& file) {
  try {
    read_trajectories_jsonl(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("recorded trajectories: one per line, tool latency optional") {
  const auto t = read_trajectories_jsonl(
      write_jsonl("turns.jsonl",
                  "{\"turns\": [{\"prompt_tokens\": 100, \"output_tokens\": 20, \"tool_latency_s\": 1.5}, "
                  "{\"prompt_tokens\": 30, \"output_tokens\": 5}]}\n\n{\"turns\": [{\"prompt_tokens\": 7, "
                  "\"output_tokens\": 1}]}\n"));
  REQUIRE(t.size() == 2);
  REQUIRE(t[0].turns.size() == 2);
  CHECK(t[0].turns[0].tool_latency_s == 1.5);
  CHECK(t[0].turns[1].prompt_tokens == 30);
  CHECK(t[0].turns[1].tool_latency_s == 0.0);
  CHECK(t[1].turns[0].output_tokens == 1);
}

TEST_CASE("recorded trajectories: a ledger's calls grouped by trajectory, tools from the gaps") {
  // Calls recorded out of order, as a data plane interleaves trajectories.
  const auto t = read_trajectories_jsonl(write_jsonl(
      "ledger.jsonl",
      "{\"trajectory\": 5, \"turn\": 1, \"prompt_tokens\": 40, \"output_tokens\": 8, \"submit_s\": 4.0, "
      "\"finish_s\": 6.0}\n"
      "{\"trajectory\": 2, \"turn\": 0, \"prompt_tokens\": 300, \"output_tokens\": 12, \"submit_s\": 0.0, "
      "\"finish_s\": 1.0}\n"
      "{\"trajectory\": 5, \"turn\": 0, \"prompt_tokens\": 200, \"output_tokens\": 10, \"submit_s\": 0.0, "
      "\"finish_s\": 1.5}\n"));
  REQUIRE(t.size() == 2);
  REQUIRE(t[0].turns.size() == 1);  // trajectory 2 first: by id
  CHECK(t[0].turns[0].prompt_tokens == 300);
  REQUIRE(t[1].turns.size() == 2);
  CHECK(t[1].turns[0].prompt_tokens == 200);
  CHECK(t[1].turns[0].tool_latency_s == Approx(2.5));  // next send 4.0 - last token 1.5
  CHECK(t[1].turns[1].output_tokens == 8);
}

TEST_CASE("recorded trajectories: bad lines are errors at their line") {
  const std::string bad_json =
      write_jsonl("bad-json.jsonl", "{\"turns\": [{\"prompt_tokens\": 1, \"output_tokens\": 1}]}\n{oops\n");
  CHECK_THAT(read_error(bad_json),
             Catch::StartsWith(bad_json + ":2:") && Catch::Contains("one JSON object per line"));
  const std::string zero =
      write_jsonl("zero.jsonl", "{\"turns\": [{\"prompt_tokens\": 1, \"output_tokens\": 0}]}\n");
  CHECK_THAT(read_error(zero), Catch::StartsWith(zero + ":1:1: error: expected 'output_tokens'"));
  const std::string neither = write_jsonl("neither.jsonl", "{\"tokens\": 3}\n");
  CHECK_THAT(read_error(neither), Catch::Contains("expected a trajectory"));
  const std::string gap = write_jsonl(
      "gap.jsonl",
      "{\"trajectory\": 1, \"turn\": 1, \"prompt_tokens\": 1, \"output_tokens\": 1, \"submit_s\": 0, "
      "\"finish_s\": 1}\n");
  CHECK_THAT(read_error(gap), Catch::StartsWith(gap + ":1:1: error: trajectory 1 lacks turn 0"));
  // A misspelt key is an error, not an absent field read as its default (tool latency 0).
  const std::string typo = write_jsonl(
      "typo.jsonl", "{\"turns\": [{\"prompt_tokens\": 1, \"output_tokens\": 1, \"tool_latency\": 30}]}\n");
  CHECK_THAT(read_error(typo),
             Catch::StartsWith(typo + ":1:1: error: unknown key 'tool_latency' in a turn; "
                                      "expected prompt_tokens, output_tokens, tool_latency_s"));
  const std::string extra = write_jsonl(
      "extra.jsonl", "{\"turns\": [{\"prompt_tokens\": 1, \"output_tokens\": 1}], \"bogus\": 1}\n");
  CHECK_THAT(read_error(extra), Catch::Contains("unknown key 'bogus' in a trajectory"));
  const std::string empty = write_jsonl("empty.jsonl", "\n");
  CHECK_THAT(read_error(empty), Catch::StartsWith(empty + ":1:1: error: expected at least one trajectory"));
}

TEST_CASE("recorded trajectories: quantities past their physical bounds are errors at their line") {
  // 1e300 tokens ran to 4.4e62 s of simulated time, and ids past an int were cast without a check.
  const std::string tokens =
      write_jsonl("tokens.jsonl", "{\"turns\": [{\"prompt_tokens\": 1e300, \"output_tokens\": 10}]}\n");
  CHECK_THAT(read_error(tokens), Catch::StartsWith(tokens + ":1:1: error: expected 'prompt_tokens'") &&
                                     Catch::Contains("from 0 to 1e+08"));
  const std::string latency =
      write_jsonl("latency.jsonl",
                  "{\"turns\": [{\"prompt_tokens\": 1, \"output_tokens\": 1, \"tool_latency_s\": 1e300}]}\n");
  CHECK_THAT(read_error(latency), Catch::Contains("expected 'tool_latency_s'"));
  const std::string id = write_jsonl("id.jsonl",
                                     "{\"trajectory\": 4294967296, \"turn\": 0, \"prompt_tokens\": 1, "
                                     "\"output_tokens\": 1, \"submit_s\": 0, "
                                     "\"finish_s\": 1}\n");
  CHECK_THAT(read_error(id), Catch::StartsWith(id + ":1:1: error: expected 'trajectory'"));
  // A number past a double's range is not a parse error to nlohmann::json but out_of_range (406),
  // which escaped the reader and aborted rlsim (found by fuzz_replay_files).
  const std::string overflow =
      write_jsonl("overflow.jsonl",
                  "{\"turns\": [{\"prompt_tokens\": 1, \"output_tokens\": 1}]}\n"
                  "{\"turns\": [{\"prompt_tokens\": 5E5555, \"output_tokens\": 1}]}\n");
  CHECK_THAT(read_error(overflow),
             Catch::StartsWith(overflow + ":2:1: error: expected one JSON object per line with numbers"));
}

TEST_CASE("a replaying workload gives trajectory id its recording (id mod count), context growing") {
  WorkloadSpec w;
  w.prompts_per_step = 3;
  w.samples_per_prompt = 1;
  w.replayed = {{{{100, 20, 1.5}, {30, 5, 9.0}}}, {{{7, 1, 0.0}}}};
  std::mt19937_64 rng(1);
  const auto step = sample_step(w, rng, 4);
  REQUIRE(step.size() == 3);
  CHECK(step[0].id == 4);
  REQUIRE(step[0].calls.size() == 2);  // 4 mod 2 = 0
  CHECK(step[0].calls[0].prompt_tokens == 100);
  CHECK(step[0].calls[0].tool_latency_s == 1.5);
  CHECK(step[0].calls[1].context_tokens == 120);
  CHECK(step[0].calls[1].tool_latency_s == 0.0);  // after the last turn: none
  CHECK(step[1].calls.size() == 1);               // 5 mod 2 = 1
  CHECK(step[2].calls.size() == 2);
}
