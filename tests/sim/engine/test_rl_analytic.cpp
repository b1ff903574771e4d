// RL step times against hand-derived formulas (fixed lengths, no randomness), within 1%:
//   disaggregated step = rollout + weight sync + train
//   overlap steady-state step = max(rollout, train + weight sync)
//   colocated step = rollout + switch + train + switch
// and the bubble fractions that follow. Rollout, train and sync are each derived from the cost
// model's closed forms, not read back from the engine.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "models/cost/cost_model_registry.h"
#include "models/timing/inference_time.h"
#include "models/timing/training_time.h"
#include "sim/engine/metrics.h"
#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

// One 1-GPU rollout pool and one 1-GPU train pool, 8 single-turn trajectories of 512 + 256 tokens.
const char* kFixed = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H800, nodes: 1, gpus_per_node: 1}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 1}
  links:
    - {between: [rollout, train], bandwidth: 800Gbps, latency: 5us}
    - {between: [agents, rollout], bandwidth: 200Gbps}
    - {between: [dataplane, rollout], bandwidth: 200Gbps}
  dataplane: {enabled: false}
workload:
  steps: 4
  prompts_per_step: 8
  samples_per_prompt: 1
  prompt_tokens: 512
  output_tokens: 256
rollout: {pool: rollout, tp: 1, max_batch: 64, engine: ideal}  # kernels only: the closed forms have no engine terms
training: {pool: train, algorithm: grpo, offload_optimizer: true}   # Adam states in host memory: fits one H800
)";

constexpr int kCalls = 8;
constexpr double kPrompt = 512, kOutput = 256;

struct Phases {
  double rollout = 0, train = 0, sync = 0, switch_to_train = 0, switch_to_rollout = 0;
};

Phases by_hand(const Scenario& s) {
  const auto cost = make_cost_model({"roofline"});
  const HardwareSpec& card = s.cluster.pools[0].card;
  Phases p;
  // All calls arrive together: one prefill of every prompt, then 255 decode iterations of the
  // batch of 8 whose mean context runs from 513 to 767 (decode time is affine in context).
  const double prefill = kCalls * prefill_seconds(s.model, card, *cost, 512, 0, 1, Precision::bf16);
  const double iteration = decode_iteration_seconds(
      s.model, card, *cost, kCalls, kPrompt + 1 + (kOutput - 2) / 2.0, 1, Precision::bf16, Precision::bf16);
  p.rollout = prefill + (kOutput - 1) * iteration;
  TrainingOptions options;
  options.sequence_length = 4096;
  options.recompute = s.training.recompute;  // the trainer follows the scenario's choices
  options.sharding = s.training.sharding;
  options.attention_kernel = s.training.attention_kernel;
  // The trainer is handed each trajectory's sequence (prompt + output), here all alike.
  options.sequence_tokens.assign(kCalls, kPrompt + kOutput);
  const TrainingStepTime t = training_step_time(
      s.model, card, *cost, static_cast<int64_t>(kCalls * (kPrompt + kOutput)), 1, 1, 1, options);
  p.train = 2 * t.forward_s + t.forward_s + t.backward_s + t.optimizer_s;  // GRPO: old log-probs + reference
  // Weights cross the rollout GPU's 400 Gbps NIC, the narrowest hop.
  p.sync = weight_bytes(s.model, Precision::bf16) / 50e9;
  const double host_bw = 25e9;
  p.switch_to_train = total_params(s.model) * 12.0 / host_bw;
  p.switch_to_rollout = p.switch_to_train + weight_bytes(s.model, Precision::bf16) / host_bw;
  return p;
}

struct RunFigures {
  std::vector<double> step_s;  ///< each step's duration
  double bubble = 0, train_waits_rollout = 0, rollout_waits_weights = 0;
};

// Runs the scenario in a child process.
RunFigures simulate_figures(const Scenario& s) {
  const test::Figures figures = test::figures_in_child([&]() {
    SimulationResult r = simulate(s);
    std::vector<double> steps;
    for (const auto& step : r.timeline.steps()) steps.push_back(step.end_s - step.start_s);
    test::Figures out;
    out.set_list("step_s", steps);
    out.set("bubble", r.metrics.bubble_fraction);
    out.set("train_waits_rollout", r.metrics.bubble_by_cause[WaitCause::train_waits_rollout]);
    out.set("rollout_waits_weights", r.metrics.bubble_by_cause[WaitCause::rollout_waits_weights]);
    return out;
  });
  return {figures.list("step_s"), figures.at("bubble"), figures.at("train_waits_rollout"),
          figures.at("rollout_waits_weights")};
}

}  // namespace

TEST_CASE("synchronous disaggregated step = rollout + weight sync + train, bubbles to match") {
  const Scenario s = test::load_inline("fixed", kFixed).scenario;
  const Phases p = by_hand(s);
  const auto f = simulate_figures(s);
  REQUIRE(f.step_s.size() == 4);
  const double step = p.rollout + p.train + p.sync;
  for (double step_s : f.step_s) CHECK(step_s == Approx(step).epsilon(0.01));
  // Two GPUs: the trainer waits through rollout, the rollout GPU through train and sync.
  CHECK(f.bubble == Approx(0.5).epsilon(0.01));
  CHECK(f.train_waits_rollout == Approx(p.rollout / (2 * step)).epsilon(0.01));
  CHECK(f.rollout_waits_weights == Approx((p.train + p.sync) / (2 * step)).epsilon(0.01));
}

TEST_CASE("overlap steady-state step = max(rollout, train + weight sync)") {
  const Scenario s = test::load_inline("fixed", kFixed, {"policy.name=overlap"}).scenario;
  const Phases p = by_hand(s);
  const auto f = simulate_figures(s);
  REQUIRE(f.step_s.size() == 4);
  for (size_t i = 1; i < 4; ++i)
    CHECK(f.step_s[i] == Approx(std::max(p.rollout, p.train + p.sync)).epsilon(0.01));
}

TEST_CASE(
    "overlap with max_staleness 0 waits for each step's weights: step = rollout + train + weight sync") {
  const Scenario s =
      test::load_inline("fixed", kFixed, {"policy.name=overlap", "policy.max_staleness=0"}).scenario;
  const Phases p = by_hand(s);
  const auto f = simulate_figures(s);
  REQUIRE(f.step_s.size() == 4);
  for (size_t i = 1; i < 4; ++i) CHECK(f.step_s[i] == Approx(p.rollout + p.train + p.sync).epsilon(0.01));
}

TEST_CASE("colocated step = rollout + switch + train + switch") {
  const Scenario s = test::load_inline("fixed-colocated", R"(
model: qwen3-8b
cluster:
  pools:
    - {name: gpu, gpu: H800, nodes: 1, gpus_per_node: 1}
  links:
    - {between: [agents, gpu], bandwidth: 200Gbps}
    - {between: [dataplane, gpu], bandwidth: 200Gbps}
  dataplane: {enabled: false}
workload:
  steps: 4
  prompts_per_step: 8
  samples_per_prompt: 1
  prompt_tokens: 512
  output_tokens: 256
rollout: {tp: 1, max_batch: 64, engine: ideal}
training: {algorithm: grpo, offload_optimizer: true}   # Adam states in host memory: fits one H800
colocation: {host_bandwidth: 25GBps}
policy: {name: colocated}
)")
                         .scenario;
  const Phases p = by_hand(s);
  const auto f = simulate_figures(s);
  REQUIRE(f.step_s.size() == 4);
  const double step = p.rollout + p.switch_to_train + p.train + p.switch_to_rollout;
  for (double step_s : f.step_s) CHECK(step_s == Approx(step).epsilon(0.01));
  CHECK(f.bubble == Approx(0.0).margin(0.01));  // one GPU does everything: nothing waits
}

TEST_CASE("the advisor applies the 30 percent rule, and recommends overlap where labels cannot run") {
  CHECK(advise(0.31, "disaggregated", true).recommendation == "label_scheduling");
  CHECK(advise(0.30, "disaggregated", true).recommendation == "pipeline_overlap");
  CHECK(advise(0.06, "disaggregated", true).recommendation == "pipeline_overlap");
  CHECK(advise(0.05, "disaggregated", true).recommendation == "none");
  const Advice afd = advise(0.63, "disaggregated", false);
  CHECK(afd.recommendation == "pipeline_overlap");
  CHECK_THAT(afd.reason, Catch::Contains("63%") && Catch::Contains("AFD"));
  CHECK(advise(0.2, "disaggregated", false).recommendation == "pipeline_overlap");
  CHECK(advise(0.01, "disaggregated", false).recommendation == "none");
}

TEST_CASE("the advisor never recommends a remedy the policy already applies") {
  const std::map<WaitCause, double> causes{{WaitCause::long_tail, 0.25},
                                           {WaitCause::train_waits_rollout, 0.1}};
  // Labels applies label scheduling and overlap: above 30% it names the largest cause left.
  const Advice labels = advise(0.41, "labels", true, causes);
  CHECK(labels.recommendation == "reduce_long_tail");
  CHECK_THAT(labels.reason,
             Catch::Contains("already applies") && Catch::Contains("long_tail") && Catch::Contains("25%"));
  CHECK(advise(0.2, "labels", true, causes).recommendation == "reduce_long_tail");
  // Overlap and streaming overlap already: below 30% they are told what is left, above it labels.
  for (const char* policy : {"overlap", "streaming"}) {
    INFO(policy);
    CHECK(advise(0.2, policy, true, causes).recommendation == "reduce_long_tail");
    CHECK(advise(0.5, policy, true, causes).recommendation == "label_scheduling");
    CHECK(advise(0.5, policy, false, causes).recommendation == "reduce_long_tail");
  }
  for (const auto& policy : {"colocated", "disaggregated", "overlap", "streaming", "labels"}) {
    for (double wait : {0.01, 0.1, 0.29, 0.31, 0.6}) {
      for (bool labels_apply : {true, false}) {
        const std::vector<std::string> applied = remedies_applied(policy);
        const std::string r = advise(wait, policy, labels_apply, causes).recommendation;
        INFO(policy << " at " << wait << ": " << r);
        CHECK(std::find(applied.begin(), applied.end(), r) == applied.end());
      }
    }
  }
}
