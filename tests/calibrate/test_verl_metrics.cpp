// Reading verl's per-step metrics: the console formats verl has printed (fixed three decimals,
// Python repr, numpy scalars, Ray prefixes and colour codes), its file logger's JSON lines, a CSV
// export, and the errors a log that is not one gets.
#include <catch2/catch.hpp>

#include "calibrate/verl_metrics.h"
#include "models/input_error.h"

using namespace rlsim;

TEST_CASE("console lines of both verl number formats, behind Ray's prefix, read as steps",
          "[calibrate][verl]") {
  const std::string text =
      "(TaskRunner pid=2664304) Total training steps: 105\n"
      "(TaskRunner pid=2664304) step:0 - val-core/openai/gsm8k/reward/mean@1:0.229\n"
      "(TaskRunner pid=2664304) step:1 - global_seqlen/min:184912.000 - response_length/mean:199.138 - "
      "timing_s/gen:42.918 - timing_s/old_log_prob:27.316 - timing_s/ref:25.057 - "
      "timing_s/update_actor:82.579 - timing_s/step:179.003 - perf/mfu/actor:0.772\n"
      "\x1b[36m(TaskRunner pid=222265)\x1b[0m step:2 - actor/lr:2e-06 - training/global_step:2 - "
      "timing_s/gen:np.float64(44.684) - timing_s/update_actor:75.54400000000001 - timing_s/step:172.797 - "
      "actor/entropy:not-a-number\n";
  const VerlLog log = parse_verl_log(text, "run.log");
  REQUIRE(log.steps.size() == 2);  // step:0 is validation only: no timings
  CHECK(log.steps[0].step == 1);
  CHECK(log.steps[0].line == 3);
  CHECK(log.steps[0].value_or("timing_s/gen", 0.0) == Approx(42.918));
  CHECK(log.steps[0].value_or("response_length/mean", 0.0) == Approx(199.138));
  CHECK(log.steps[0].value_or("perf/mfu/actor", 0.0) == Approx(0.772));
  CHECK(log.steps[1].value_or("timing_s/gen", 0.0) == Approx(44.684));
  CHECK(log.steps[1].value_or("actor/lr", 0.0) == Approx(2e-6));
  CHECK(log.steps[1].value_or("training/global_step", 0.0) == 2.0);  // its `step:` is no step marker
  CHECK_FALSE(log.steps[1].has("actor/entropy"));                    // not a number: dropped
}

TEST_CASE("old logs' timing/ prefix reads as timing_s/", "[calibrate][verl]") {
  const VerlLog log =
      parse_verl_log("step:3 - timing/gen:21.470 - timing/ref:4.360 - timing/step:30.1\n", "old.log");
  REQUIRE(log.steps.size() == 1);
  CHECK(log.steps[0].value_or("timing_s/gen", 0.0) == Approx(21.47));
  CHECK(log.steps[0].value_or("timing_s/ref", 0.0) == Approx(4.36));
}

TEST_CASE("the file logger's JSON lines and a CSV export read as the console does", "[calibrate][verl]") {
  const VerlLog json = parse_verl_log(
      "{\"step\": 2, \"data\": {\"timing_s/gen\": 40.5, \"timing_s/step\": 90, \"note\": \"x\"}}\n"
      "{\"step\": 1, \"data\": {\"timing_s/gen\": 41.5, \"timing_s/step\": 91}}\n",
      "run.jsonl");
  REQUIRE(json.steps.size() == 2);
  CHECK(json.steps[0].step == 1);  // in step order
  CHECK(json.steps[1].value_or("timing_s/gen", 0.0) == 40.5);
  CHECK_FALSE(json.steps[1].has("note"));

  const VerlLog csv = parse_verl_log(
      "step,timing_s/gen,timing_s/update_actor,response_length/mean\n"
      "1,42.9,82.6,199.1\n"
      "2,44.7,,198.2\n",
      "run.csv");
  REQUIRE(csv.steps.size() == 2);
  CHECK(csv.steps[0].value_or("timing_s/update_actor", 0.0) == Approx(82.6));
  CHECK_FALSE(csv.steps[1].has("timing_s/update_actor"));  // an empty cell: not logged that step
}

TEST_CASE("a log that is not one, or repeats a step, is refused with its place", "[calibrate][verl]") {
  CHECK_THROWS_WITH(parse_verl_log("hello\nworld\n", "notes.txt"),
                    Catch::Contains("notes.txt") && Catch::Contains("no step with timings"));
  CHECK_THROWS_WITH(
      parse_verl_log("step:1 - timing_s/gen:1\nstep:1 - timing_s/gen:2\n", "twice.log"),
      Catch::Contains("twice.log:2") && Catch::Contains("step 1 appears twice (first on line 1)"));
  CHECK_THROWS_WITH(parse_verl_log("step,timing_s/gen\n1,fast\n", "bad.csv"), Catch::Contains("bad.csv:2"));
  CHECK_THROWS_WITH(parse_verl_log("{\"step\": 1}\n", "bad.jsonl"),
                    Catch::Contains("bad.jsonl:1") && Catch::Contains("without step and data"));
}

TEST_CASE("a real verl run's per-step metrics read back as published", "[calibrate][verl]") {
  // Qwen2-7B-Instruct GRPO on one node of 8 GPUs, its console log's timings as a CSV
  // (data/measured/rl/README.md has the source).
  const VerlLog log =
      read_verl_log(std::string(RLSIM_TEST_SOURCE_DIR) + "/data/measured/rl/verl-qwen2-7b-gsm8k-steps.csv");
  REQUIRE(log.steps.size() == 105);
  const VerlStep& first = log.steps.front();
  CHECK(first.step == 1);
  CHECK(first.value_or("timing_s/gen", 0.0) == Approx(42.918));
  CHECK(first.value_or("timing_s/update_actor", 0.0) == Approx(82.579));
  CHECK(first.value_or("timing_s/step", 0.0) == Approx(179.003));
  CHECK_FALSE(first.has("timing_s/testing"));  // validation every fifth step only
  CHECK(log.steps[4].value_or("timing_s/testing", 0.0) == Approx(45.697));
}
