// MFU per training phase and pool, and the rollout's decode batch occupancy and KV use, as a run
// reports them in metrics.json and the summary: consistent with the run's own tokens, busy time
// and the cards' peaks, and per pool by each pool's card when training spans two pools.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using Catch::Matchers::WithinRel;
using nlohmann::json;

namespace {

double peak_bf16(const std::string& card) {
  const CliResult r = run_rlsim("roofline --hardware " + card + " --json");
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["peak_flops"].get<double>();
}

json run_metrics(const std::string& name, const std::string& args, std::string* summary = nullptr) {
  const auto out = scratch_dir(name) / "out";
  const CliResult r = run_rlsim("run " + args + " --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  if (summary) *summary = r.out;
  return json::parse(slurp(out / "metrics.json"));
}

}  // namespace

TEST_CASE("training MFU is the phases' model FLOPs over their busy GPU-seconds at the card's peak") {
  std::string summary;
  const json m = run_metrics("mfu-quickstart", "scenarios/quickstart.yaml --set workload.steps=2", &summary);
  const json& mfu = m["mfu"];
  const double tokens = mfu["trained_tokens"].get<double>();
  const double forward = mfu["forward_model_flops_per_token"].get<double>();
  REQUIRE(tokens > 0.0);
  const double peak = peak_bf16("H800");  // the training pool's card
  const double update_s = m["gpu_seconds_by_state"]["busy:train"].get<double>();
  const double forwards_s = m["gpu_seconds_by_state"]["busy:ref_logprob"].get<double>();
  // GRPO: the update is a forward and a backward (3× the forward's FLOPs), then two forwards.
  CHECK_THAT(mfu["training"]["update_actor"].get<double>(),
             WithinRel(tokens * 3.0 * forward / (update_s * peak), 1e-9));
  CHECK_THAT(mfu["training"]["old_log_prob"].get<double>(),
             WithinRel(tokens * 2.0 * forward / (forwards_s * peak), 1e-9));
  CHECK(mfu["training"]["ref"] == mfu["training"]["old_log_prob"]);
  CHECK(mfu["training"]["update_actor"].get<double>() < 1.0);
  CHECK(mfu["by_pool"]["train"]["update_actor"] == mfu["training"]["update_actor"]);
  CHECK_FALSE(mfu["by_pool"].contains("rollout"));  // disaggregated: rollout GPUs never train
  CHECK_THAT(summary, Catch::Contains("MFU (model FLOPs / peak)") && Catch::Contains("update_actor") &&
                          Catch::Contains("decode batch occupancy"));

  // The rollout's load while generating: fractions of max_batch and of the KV capacity.
  const json& inference = m["inference"];
  CHECK(inference["batch_occupancy"].get<double>() > 0.0);
  CHECK(inference["batch_occupancy"].get<double>() <= 1.0);
  CHECK(inference["kv_use"]["mean"].get<double>() > 0.0);
  CHECK(inference["kv_use"]["mean"].get<double>() <= inference["kv_use"]["max"].get<double>());
  CHECK(inference["kv_use"]["max"].get<double>() <= 1.0);
}

TEST_CASE("colocated over two pools of different cards: each pool's MFU is against its own peak") {
  const json m = run_metrics(
      "mfu-colocated", "scenarios/heterogeneous.yaml --set workload.steps=2 --set policy.name=colocated");
  const json& by_pool = m["mfu"]["by_pool"];
  REQUIRE(by_pool.contains("rollout"));
  REQUIRE(by_pool.contains("train"));
  // Every training GPU does an equal share in lockstep, so per GPU-second the FLOPs match and the
  // MFUs differ by the peaks: H20 against H800.
  const double ratio =
      by_pool["rollout"]["update_actor"].get<double>() / by_pool["train"]["update_actor"].get<double>();
  CHECK_THAT(ratio, WithinRel(peak_bf16("H800") / peak_bf16("H20"), 1e-9));
  // The run's MFU lies between the pools'.
  const double all = m["mfu"]["training"]["update_actor"].get<double>();
  CHECK(all > by_pool["train"]["update_actor"].get<double>());
  CHECK(all < by_pool["rollout"]["update_actor"].get<double>());
}
