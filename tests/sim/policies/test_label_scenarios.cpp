// The committed label, heterogeneous and fault scenarios, each a test of what issue 5 says must
// hold. Expected figures were taken from the scenarios' runs (steady-state means: warm-up and drain
// steps left out) and are committed here with a ±5% tolerance; a change that moves them further is a
// change of behaviour to explain.
#include <catch2/catch.hpp>

#include "models/review/phase_preference.h"
#include "sim/scenario/scenario_loader.h"
#include "tests/sim/policies/label_test_support.h"

using namespace rlsim;
using namespace rlsim::test;

TEST_CASE(
    "label-scheduling: labels beats the synchronous disaggregated step, in steady state its lending gains "
    "nothing over overlap, and without interruption only overlap is left",
    "[long]") {
  const PolicyRun disaggregated = simulate_scenario("label-scheduling.yaml", "disaggregated");
  const PolicyRun overlap = simulate_scenario("label-scheduling.yaml", "overlap");
  const PolicyRun labels = simulate_scenario("label-scheduling.yaml", "labels");
  const PolicyRun stuck =
      simulate_scenario("label-scheduling.yaml", "labels", {"labels.interruptible=false"});
  INFO("disaggregated " << disaggregated.step_s << " s, bubble " << disaggregated.bubble << "; overlap "
                        << overlap.step_s << " s, bubble " << overlap.bubble << "; labels " << labels.step_s
                        << " s, bubble " << labels.bubble << "; labels (not interruptible) " << stuck.step_s
                        << " s, bubble " << stuck.bubble);
  // The synchronous step waits more than 30%: the advisor says label scheduling.
  CHECK(disaggregated.bubble > 0.30);
  CHECK(disaggregated.advice == "label_scheduling");
  // Label scheduling: a shorter step and a smaller bubble than the synchronous loop.
  CHECK(labels.step_s < 0.9 * disaggregated.step_s);
  CHECK(labels.bubble < disaggregated.bubble - 0.1);
  // Launching whole steps, the lent training nodes find no next-step work in the steady steps: the
  // step is the pipeline's (only warm-up and drain were shorter), the bubble a little smaller.
  CHECK(labels.step_s == Approx(overlap.step_s).epsilon(0.01));
  CHECK(labels.bubble < overlap.bubble);
  // Without interruption no train-tagged node is lent, and what is left is exactly the pipeline
  // overlap schedule.
  CHECK(stuck.step_s == Approx(overlap.step_s).epsilon(1e-9));
  CHECK(stuck.bubble == Approx(overlap.bubble).epsilon(1e-9));
  // Committed expectations (steady-state means over the scenario's 8 steps).
  CHECK(disaggregated.step_s == Approx(107.17).epsilon(0.05));
  CHECK(labels.step_s == Approx(84.48).epsilon(0.05));
  CHECK(labels.bubble == Approx(0.427).epsilon(0.05));
}

TEST_CASE(
    "label-scheduling with rolling launches: the tail is filled with next-step work and lending cuts the "
    "bubble",
    "[long]") {
  const PolicyRun rolling = simulate_scenario("label-scheduling.yaml", "labels", {"labels.launch=rolling"});
  const PolicyRun stuck = simulate_scenario("label-scheduling.yaml", "labels",
                                            {"labels.launch=rolling", "labels.interruptible=false"});
  const PolicyRun step = simulate_scenario("label-scheduling.yaml", "labels");
  INFO("rolling " << rolling.step_s << " s, bubble " << rolling.bubble << "; not interruptible "
                  << stuck.step_s << " s, bubble " << stuck.bubble);
  CHECK(rolling.step_s < 0.8 * step.step_s);
  // Without lending, the bubble is back near the synchronous loop's; the rolling pipeline stays, and
  // in the steady steps it sets the step: lending keeps the lent GPUs busy without shortening it.
  CHECK(stuck.bubble > rolling.bubble + 0.15);
  CHECK(stuck.step_s == Approx(rolling.step_s).epsilon(0.02));
  CHECK(rolling.step_s == Approx(61.61).epsilon(0.05));
}

TEST_CASE("below 30% waiting the advisor recommends pipeline overlap first") {
  // Colocated label-scheduling: every GPU rolls out, then trains; waiting is about 21%.
  const PolicyRun colocated = simulate_scenario("label-scheduling.yaml", "colocated");
  CHECK(colocated.bubble < 0.30);
  CHECK(colocated.advice == "pipeline_overlap");
  CHECK(colocated.step_s == Approx(84.49).epsilon(0.05));
}

TEST_CASE("label-agentic: lending the training nodes to a tool-heavy rollout pays", "[long]") {
  const PolicyRun disaggregated = simulate_scenario("label-agentic.yaml", "disaggregated");
  const PolicyRun labels = simulate_scenario("label-agentic.yaml", "labels");
  CHECK(disaggregated.advice == "label_scheduling");
  CHECK(labels.step_s < 0.75 * disaggregated.step_s);
  CHECK(labels.bubble < disaggregated.bubble - 0.2);
  CHECK(disaggregated.step_s == Approx(624.8).epsilon(0.05));
  CHECK(labels.step_s == Approx(333.2).epsilon(0.05));
}

TEST_CASE(
    "label-agentic launching whole steps: GPUs idle because no work is launched, not because of the "
    "agents",
    "[long]") {
  const PolicyRun step = simulate_scenario("label-agentic.yaml", "labels", {"labels.launch=step"});
  const PolicyRun rolling = simulate_scenario("label-agentic.yaml", "labels");
  const PolicyRun overlap = simulate_scenario("label-agentic.yaml", "overlap");
  INFO("step launches: no_work_launched " << step.no_work_launched << ", agents " << step.rollout_waits_agents
                                          << "; rolling: " << rolling.no_work_launched << ", "
                                          << rolling.rollout_waits_agents);
  // Step launches hold back next-step work that the staleness bound allows: that wait is the
  // policy's, and the largest share of the bubble.
  CHECK(step.no_work_launched > step.rollout_waits_agents);
  CHECK(step.no_work_launched > 0.2);
  // overlap launches the same way; rolling launches hold nothing back.
  CHECK(overlap.no_work_launched > 0.1);
  CHECK(rolling.no_work_launched == 0.0);
  // The labels run is not advised to adopt label scheduling, which it runs.
  CHECK(step.advice != "label_scheduling");
  CHECK(step.advice != "pipeline_overlap");
}

TEST_CASE("heterogeneous: the roofline says H800 trains and H20 decodes, costs per step compared") {
  LoadOptions options;
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  const Scenario s =
      load_scenario(std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/heterogeneous.yaml", options).scenario;
  const PhasePreference p =
      phase_preference({s.cluster.pool("train")->card, s.cluster.pool("rollout")->card}, Precision::bf16);
  CHECK(p.train_card == "H800");
  CHECK(p.rollout_card == "H20");
  const PolicyRun hetero = simulate_scenario("heterogeneous.yaml", "disaggregated");
  const PolicyRun h800 =
      simulate_scenario("heterogeneous.yaml", "disaggregated", {"cluster.pools.rollout.gpu=H800"});
  INFO("H20 rollout " << hetero.usd_per_step << " USD/step, H800 rollout " << h800.usd_per_step
                      << " USD/step");
  CHECK(hetero.usd_per_step > 0.0);
  CHECK(hetero.usd_per_1m_tokens > 0.0);
  // Decode is memory-bound: H20 (4.0 TB/s) generates faster than H800 (3.35 TB/s), for less.
  CHECK(hetero.step_s < h800.step_s);
  CHECK(hetero.usd_per_step < 0.7 * h800.usd_per_step);
  // With the vllm-v1 engine terms and the GEMMs' compute-memory overlap (p = 2.7; 73.42 with max()).
  CHECK(hetero.step_s == Approx(78.35).epsilon(0.05));
}

TEST_CASE("faults: a training GPU failure stops rollout under colocated, not under disaggregated") {
  const PolicyRun colocated = simulate_scenario("faults.yaml", "colocated");
  const PolicyRun disaggregated = simulate_scenario("faults.yaml", "disaggregated");
  INFO("colocated: " << colocated.gpus_stopped << " GPUs stopped, " << colocated.gpu_seconds_lost
                     << " GPU-s lost; disaggregated: " << disaggregated.gpus_stopped << " stopped, "
                     << disaggregated.gpu_seconds_lost << " GPU-s lost");
  CHECK(colocated.gpus_failed == 1);
  CHECK(disaggregated.gpus_failed == 1);
  // Colocated: one job over every GPU — the rollout GPUs stop too.
  CHECK(colocated.gpus_stopped == 16);
  CHECK(colocated.rollout_pool_fault_s > 0.0);
  // Disaggregated: only the trainer's 8 GPUs stop; rollout keeps generating.
  CHECK(disaggregated.gpus_stopped == 8);
  CHECK(disaggregated.rollout_pool_fault_s == 0.0);
  // The lost GPU-seconds are reported: the failed GPU's 180 s repair plus the stopped ones' wait
  // (1,440 GPU-s), and the 8 trainer GPUs' 20 s restart, fault time too (160 GPU-s).
  CHECK(colocated.gpu_seconds_lost > disaggregated.gpu_seconds_lost);
  CHECK(disaggregated.gpu_seconds_lost == Approx(1440.0 + 160.0).epsilon(0.05));
  CHECK(colocated.steps_touched >= 1);
}

TEST_CASE("faults: every policy survives the failure and finishes its steps") {
  for (const char* policy : {"overlap", "streaming", "labels"}) {
    const PolicyRun f = simulate_scenario("faults.yaml", policy);
    INFO(policy);
    CHECK(f.step_s > 0.0);
    CHECK(f.gpus_failed == 1);
  }
}
