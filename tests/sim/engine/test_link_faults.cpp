// Link faults: a failed link stalls the transfers over it until it is repaired, and only those.
#include <catch2/catch.hpp>
#include <sstream>

#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

struct StepFigures {
  double start = 0, rollout = 0, train = 0, sync = 0, end = 0;
  int links_failed = 0;
};

// The quickstart cluster with fixed lengths, one step; `faults` is the `faults:` section.
StepFigures simulate_step(const std::string& faults) {
  const std::string yaml = R"(
name: link-fault
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 1, gpus_per_node: 8}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 8}
  links:
    - {between: [rollout, train], bandwidth: 100Gbps, latency: 5us}
    - {between: [agents, rollout], bandwidth: 200Gbps, latency: 10us}
    - {between: [dataplane, rollout], bandwidth: 100Gbps, latency: 10us}
workload: {steps: 1, prompts_per_step: 8, samples_per_prompt: 4, prompt_tokens: 512, output_tokens: 512}
rollout: {pool: rollout, tp: 2}
training: {pool: train}
)" + faults;
  const Scenario s = test::load_inline("link-fault", yaml).scenario;
  const test::Figures figures = test::figures_in_child([&]() {
    const SimulationResult r = simulate(s);
    const StepRecord& step = r.timeline.steps().at(0);
    test::Figures out;
    out.set("start", step.start_s);
    out.set("rollout", step.rollout_s);
    out.set("train", step.train_s);
    out.set("sync", step.weight_sync_s);
    out.set("end", step.end_s);
    out.set("links_failed", r.metrics.faults.links_failed);
    return out;
  });
  return {figures.at("start"), figures.at("rollout"), figures.at("train"),
          figures.at("sync"),  figures.at("end"),     static_cast<int>(figures.at("links_failed"))};
}

}  // namespace

TEST_CASE(
    "a failed link stalls the weight sync over it until the repair, and a failure it does not cross changes "
    "nothing") {
  const StepFigures healthy = simulate_step("");
  const double sync_start = healthy.start + healthy.rollout + healthy.train;
  REQUIRE(healthy.sync > 0.0);
  // Down from t = 1 s to past the moment the sync would start: the sync waits for the repair,
  // then takes its usual time (less the links' few microseconds of latency, spent meanwhile).
  const double repaired = sync_start + 2.0;
  std::ostringstream during_sync;
  during_sync << "faults: {events: [{link: [train, rollout], at: 1s, repair_after: " << (repaired - 1.0)
              << "s}]}\n";
  const StepFigures stalled = simulate_step(during_sync.str());
  CHECK(stalled.links_failed == 1);
  CHECK(stalled.rollout == Approx(healthy.rollout).epsilon(1e-9));
  CHECK(stalled.end == Approx(repaired + healthy.sync).margin(1e-4));
  CHECK(stalled.end > repaired + healthy.sync - 1e-4);
  // The agents' link fails and is repaired during training: no call crosses it then.
  std::ostringstream idle;
  idle << "faults: {events: [{link: [agents, rollout], at: "
       << healthy.start + healthy.rollout + 0.1 * healthy.train << "s, repair_after: " << 0.5 * healthy.train
       << "s}]}\n";
  const StepFigures untouched = simulate_step(idle.str());
  CHECK(untouched.end == Approx(healthy.end).epsilon(1e-12));
}
