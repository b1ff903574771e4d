// Preemption accounting: an instance taken away from rollout mid-generation and resumed later
// finishes its call exactly (paused time + save + restore) later than without the preemption —
// no generated token is lost or redone — and a migrated call finishes on another instance with
// its remaining tokens only.
#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include "models/arch_params.h"
#include "models/cost/cost_model_registry.h"
#include "sim/engine/rl_context.h"
#include "sim/engine/rollout_service.h"
#include "sim/platform/platform.h"
#include "sim/platform/topology.h"
#include "tests/sim/sim_test_support.h"

namespace sg4 = simgrid::s4u;
using namespace rlsim;

namespace {

const char* kTwoInstances = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H800, nodes: 1, gpus_per_node: 2}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 2}
  links:
    - {between: [rollout, train], bandwidth: 400Gbps}
    - {between: [agents, rollout], bandwidth: 200Gbps}
    - {between: [dataplane, rollout], bandwidth: 200Gbps}
  dataplane: {enabled: false}
workload:
  prompts_per_step: 1
  samples_per_prompt: 1
  prompt_tokens: 1000
  output_tokens: 4000
rollout: {pool: rollout, tp: 1, max_batch: 8, prefix_cache: false}
training: {pool: train, offload_optimizer: true}
)";

struct PreemptRun {
  double finish_s = 0.0;
  double stopped_s = 0.0;
  double resumed_s = 0.0;
  std::vector<double> switching_s;  ///< durations of the instance's `switching` intervals
  int finished_on = -1;
};

/// One call of 4000 tokens on instance 0; when `preempt_at` > 0 the instance is preempted then
/// (with `mode`) and resumed `pause_s` after it stopped.
PreemptRun simulate_call(double preempt_at, double pause_s, Preemption mode) {
  const test::Figures figures = test::figures_in_child([&]() {
    LoadedScenario loaded = test::load_inline("preempt", kTwoInstances);
    const Scenario& s = loaded.scenario;
    const auto engine = make_engine({});
    Topology topology(s.cluster);
    Platform platform = build_platform(s.cluster, topology);
    Timeline timeline;
    RolloutMonitor monitor;
    const auto cost = make_cost_model(s.cost_model, s.profile);
    RlContext ctx{s, platform, timeline, *cost, monitor, std::mt19937_64(s.seed), {}, {}};
    const auto& gpus = platform.pool("rollout").gpus;
    for (size_t g = 0; g < gpus.size(); ++g) {
      GpuGroup group;
      group.hosts = {gpus[g]};
      group.tracks = {timeline.add_track(Track{gpus[g]->get_name(), "rollout", true, 0.0})};
      ctx.rollout_instances.push_back(group);
    }
    PreemptRun run;
    sg4::Actor::create("orchestrator", platform.dataplane, [&]() {
      RolloutService service(ctx, *cost, ctx.rollout_instances, monitor);
      service.start();
      Trajectory t;
      t.calls.push_back(LlmCall{1000, 0, 4000, 0});
      service.launch(t, 0);
      if (preempt_at > 0.0) {
        // Keep the call on instance 0 (least-loaded picks it first); preempt it mid-decode.
        sg4::this_actor::sleep_until(preempt_at);
        run.stopped_s = service.preempt({0}, mode).front();
        sg4::this_actor::sleep_for(pause_s);
        run.resumed_s = sg4::Engine::get_clock();
        service.resume({0}, 0, 0.0);
      }
      run.finish_s = service.wait_finished().finish_s;
      service.stop();
    });
    engine->run();
    for (const auto& i : timeline.intervals()) {
      if (i.state == GpuState::switching() && i.track == 0) run.switching_s.push_back(i.end_s - i.start_s);
    }
    double last_busy = 0.0;  // the call's last token came from the instance busy last
    for (const auto& i : timeline.intervals()) {
      if (i.state == GpuState::busy(Phase::rollout) && i.end_s > last_busy) {
        last_busy = i.end_s;
        run.finished_on = i.track;
      }
    }
    test::Figures out;
    out.set("finish_s", run.finish_s);
    out.set("stopped_s", run.stopped_s);
    out.set("resumed_s", run.resumed_s);
    out.set_list("switching_s", run.switching_s);
    out.set("finished_on", run.finished_on);
    return out;
  });
  return {figures.at("finish_s"), figures.at("stopped_s"), figures.at("resumed_s"),
          figures.list("switching_s"), static_cast<int>(figures.at("finished_on"))};
}

}  // namespace

TEST_CASE("a call preempted with save_kv resumes with exactly its remaining tokens plus save and restore") {
  const PreemptRun plain = simulate_call(0.0, 0.0, Preemption::save_kv);
  const PreemptRun preempted = simulate_call(plain.finish_s / 2.0, 7.25, Preemption::save_kv);
  REQUIRE(plain.finish_s > 1.0);
  REQUIRE(preempted.switching_s.size() == 2);  // KV out to host memory, KV back in
  const double save = preempted.switching_s[0], restore = preempted.switching_s[1];
  CHECK(save > 0.0);
  CHECK(restore == Approx(save).epsilon(1e-12));
  // The KV moved is the prompt plus the tokens generated so far: a whole number of tokens.
  LoadedScenario loaded = test::load_inline("preempt", kTwoInstances);
  const double seconds_per_token = kv_bytes_per_token(loaded.scenario.model, Precision::bf16) /
                                   loaded.scenario.rollout.swap_bandwidth_bytes_per_s;
  const double kv_tokens = save / seconds_per_token;
  CHECK(kv_tokens == Approx(std::round(kv_tokens)).margin(1e-6));
  CHECK(kv_tokens > 1000.0);
  CHECK(kv_tokens < 5000.0);
  // Stopped at the first iteration boundary after the preemption, once the KV was saved.
  CHECK(preempted.stopped_s >= plain.finish_s / 2.0 + save);
  CHECK(preempted.stopped_s - save - plain.finish_s / 2.0 < 0.1);
  // The exact accounting: paused time + save + restore, nothing lost, nothing redone.
  const double paused = preempted.resumed_s - preempted.stopped_s;
  CHECK(paused == Approx(7.25).margin(1e-9));
  CHECK(preempted.finish_s - plain.finish_s == Approx(paused + save + restore).margin(1e-6));
}

TEST_CASE("a call preempted with recompute pays a re-prefill instead of KV transfers") {
  const PreemptRun plain = simulate_call(0.0, 0.0, Preemption::recompute);
  const PreemptRun preempted = simulate_call(plain.finish_s / 2.0, 3.0, Preemption::recompute);
  CHECK(preempted.switching_s.empty());
  const double extra = preempted.finish_s - plain.finish_s - (preempted.resumed_s - preempted.stopped_s);
  CHECK(extra > 0.0);  // the re-prefill of prompt + generated tokens
  CHECK(extra < 0.05 * plain.finish_s);
}

TEST_CASE("a migrated call finishes on the other instance without waiting for the resume") {
  const PreemptRun plain = simulate_call(0.0, 0.0, Preemption::migrate);
  const PreemptRun migrated = simulate_call(plain.finish_s / 2.0, 1000.0, Preemption::migrate);
  CHECK(plain.finished_on == 0);
  CHECK(migrated.finished_on == 1);
  CHECK(migrated.finish_s < migrated.resumed_s);     // did not wait for instance 0
  CHECK(migrated.finish_s > plain.finish_s);         // paid a re-prefill on the new instance
  CHECK(migrated.finish_s < plain.finish_s * 1.05);  // but no token was generated twice
}
