// The finding of a sweep over engine presets whose scenario pins the batching: which engines ran
// another batching than their own and the argument that lets each batch its own way — none when
// every engine ran its own or the batching is swept too; and a serving sweep that prints it.
#include <catch2/catch.hpp>

#include "tests/cli/cli_support.h"
#include "tools/kinds/pinned_batching.h"

using namespace rlsim;
using Catch::Matchers::Contains;

namespace {

/// A rollout block as the loader would give it: the engine the point's --param names, its own
/// batching from a small table, and `pinned` (when set) in place of that.
RolloutOf fake_loader(const std::string& pinned) {
  return [pinned](const LoadOptions& options) {
    RolloutSpec rollout;
    rollout.engine = options.params.at(0).substr(options.params.at(0).find('=') + 1);
    rollout.engine_overhead.scheduler = rollout.engine == "trtllm" ? "inflight_batching" : "chunked_prefill";
    rollout.scheduler.name = pinned.empty() ? rollout.engine_overhead.scheduler : pinned;
    return rollout;
  };
}

SweepManifest engine_sweep(const std::string& block) {
  SweepManifest manifest;
  manifest.scenario = "s.yaml";
  manifest.axes = {{block + ".engine", {"vllm-v1", "trtllm"}}};
  return manifest;
}

}  // namespace

TEST_CASE("an engine sweep whose scenario sets the batching names the engines it overrode") {
  const std::string note =
      pinned_batching_note(engine_sweep("serve"), "serve", fake_loader("chunked_prefill"));
  CHECK(
      note ==
      "batching: every point ran serve.scheduler chunked_prefill as the scenario sets it, where trtllm's own "
      "is inflight_batching (rlsim list engines): to weigh the engines as they ship, add --unset "
      "serve.scheduler\n");

  SweepManifest by_set = engine_sweep("rollout");
  by_set.sets = {"rollout.scheduler=chunked_prefill"};
  CHECK_THAT(pinned_batching_note(by_set, "rollout", fake_loader("chunked_prefill")),
             Contains("as the --set gives it") && Contains("leave out --set rollout.scheduler"));
}

TEST_CASE("no batching finding when each engine ran its own, the batching is swept, or no engine is") {
  CHECK(pinned_batching_note(engine_sweep("serve"), "serve", fake_loader("")).empty());

  SweepManifest both = engine_sweep("serve");
  both.axes.push_back({"serve.scheduler", {"chunked_prefill"}});
  CHECK(pinned_batching_note(both, "serve", fake_loader("chunked_prefill")).empty());

  // The block's own axis only: a rollout.engine axis says nothing of a serve deployment.
  CHECK(pinned_batching_note(engine_sweep("rollout"), "serve", fake_loader("chunked_prefill")).empty());

  // A point that does not load is skipped: the table shows it has no figures.
  const RolloutOf broken = [](const LoadOptions&) -> RolloutSpec { throw std::runtime_error("no"); };
  CHECK(pinned_batching_note(engine_sweep("serve"), "serve", broken).empty());
}

TEST_CASE("serve: a sweep over engines on the bundled scenario says its scheduler overrode theirs") {
  const auto out = test::scratch_dir("pinned-batching");
  const std::string sweep =
      "sweep scenarios/serve-llama3-70b.yaml --set workload.requests=30 --param "
      "serve.engine=vllm-v1,trtllm -q --out '";
  const auto pinned = test::run_rlsim(sweep + (out / "pinned").string() + "'");
  REQUIRE(pinned.exit_code == 0);
  CHECK_THAT(pinned.out, Contains("batching: every point ran serve.scheduler chunked_prefill as the scenario "
                                  "sets it, where trtllm's own is inflight_batching"));
  const auto own = test::run_rlsim(
      "sweep scenarios/serve-llama3-70b.yaml --unset serve.scheduler --set "
      "workload.requests=30 --param serve.engine=vllm-v1,trtllm -q --out '" +
      (out / "own").string() + "'");
  REQUIRE(own.exit_code == 0);
  CHECK_THAT(own.out, !Contains("batching:"));
}
