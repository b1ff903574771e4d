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

TEST_CASE("colocated over two pools: each pool that trained has its figure, its share over its own time") {
  // colocated-vs-disaggregated: 8 + 8 H800, both pools train in lockstep under colocated.
  const json m = run_metrics(
      "mfu-colocated",
      "scenarios/colocated-vs-disaggregated.yaml --set workload.steps=2 --set policy.name=colocated");
  const json& by_pool = m["mfu"]["by_pool"];
  REQUIRE(by_pool.contains("rollout"));
  REQUIRE(by_pool.contains("train"));
  // Each pool does half the FLOPs in half the GPU-seconds on the same card: the run's figure.
  for (const char* phase : {"update_actor", "old_log_prob", "ref"}) {
    const double all = m["mfu"]["training"][phase].get<double>();
    CHECK_THAT(by_pool["rollout"][phase].get<double>(), WithinRel(all, 1e-9));
    CHECK_THAT(by_pool["train"][phase].get<double>(), WithinRel(all, 1e-9));
  }
  const double tokens = m["mfu"]["trained_tokens"].get<double>();
  const double forward = m["mfu"]["forward_model_flops_per_token"].get<double>();
  const double update_s = m["gpu_seconds_by_state"]["busy:train"].get<double>();
  CHECK_THAT(m["mfu"]["training"]["update_actor"].get<double>(),
             WithinRel(tokens * 3.0 * forward / (update_s * peak_bf16("H800")), 1e-9));
}

TEST_CASE("a KL-free recipe keeps no reference model: one forward pass and its weights fewer") {
  const std::string args = "scenarios/quickstart.yaml --set workload.steps=2";
  const json grpo = run_metrics("ref-grpo", args);
  const json dapo = run_metrics("ref-dapo", args + " --set training.reference_model=false");
  // The extra forwards take one stretch: two passes (old log-probs, reference) against one.
  CHECK_THAT(dapo["gpu_seconds_by_state"]["busy:ref_logprob"].get<double>(),
             WithinRel(grpo["gpu_seconds_by_state"]["busy:ref_logprob"].get<double>() / 2.0, 1e-9));
  CHECK(grpo["verl_timing_s"].contains("ref"));
  CHECK_FALSE(dapo["verl_timing_s"].contains("ref"));
  CHECK_FALSE(dapo["mfu"]["training"].contains("ref"));
  CHECK_THAT(dapo["verl_timing_s"]["old_log_prob"].get<double>(),
             WithinRel(grpo["verl_timing_s"]["old_log_prob"].get<double>(), 1e-9));
  CHECK(grpo["memory"]["training"]["reference_bytes_per_gpu"].get<double>() > 0.0);
  CHECK(dapo["memory"]["training"]["reference_bytes_per_gpu"].get<double>() == 0.0);
}

TEST_CASE("log-probs from the rollout engine leave the trainer no old_log_prob pass") {
  const std::string args = "scenarios/quickstart.yaml --set workload.steps=2";
  const json dapo = run_metrics("lp-dapo", args + " --set training.reference_model=false");
  const json rollout = run_metrics(
      "lp-rollout", args + " --set training.reference_model=false --set training.rollout_log_probs=true");
  // The reference model gone, old_log_prob was the one extra forward; without it there is none.
  CHECK(dapo["gpu_seconds_by_state"]["busy:ref_logprob"].get<double>() > 0.0);
  CHECK_FALSE(rollout["gpu_seconds_by_state"].contains("busy:ref_logprob"));
  CHECK(dapo["verl_timing_s"].contains("old_log_prob"));
  CHECK_FALSE(rollout["verl_timing_s"].contains("old_log_prob"));
  CHECK_FALSE(rollout["mfu"]["training"].contains("old_log_prob"));
  // The update itself is the same work.
  CHECK_THAT(rollout["verl_timing_s"]["update_actor"].get<double>(),
             WithinRel(dapo["verl_timing_s"]["update_actor"].get<double>(), 1e-9));
  CHECK(rollout["phases_s"]["train"].get<double>() < dapo["phases_s"]["train"].get<double>());
}

TEST_CASE("verl's timing names share the steady steps' busy time over those steps, not over all") {
  // 4 steps: the first and last are left out, so dividing by all of them would halve the figures.
  const json m = run_metrics("verl-timing-steady", "scenarios/quickstart.yaml --set workload.steps=4");
  REQUIRE(m["steady_state"]["steps"].size() == 2);
  const json& verl = m["verl_timing_s"];
  const double trainer_s =
      verl["old_log_prob"].get<double>() + verl["ref"].get<double>() + verl["update_actor"].get<double>();
  // The training pool does nothing else in its phase: its busy time is the phase's length.
  CHECK_THAT(trainer_s, WithinRel(m["phases_s"]["train"].get<double>(), 0.02));
}

TEST_CASE("fp32 gradients double the gradient buffers and lengthen the DP exchange") {
  const std::string args = "scenarios/quickstart.yaml --set workload.steps=2";
  const json bf16 = run_metrics("grad-bf16", args);
  const json fp32 = run_metrics("grad-fp32", args + " --set training.gradient_precision=fp32");
  // ZeRO-3 over 8 GPUs: the sharded gradient buffer goes from 2 to 4 bytes a parameter.
  CHECK_THAT(fp32["memory"]["training"]["gradient_bytes_per_gpu"].get<double>(),
             WithinRel(2.0 * bf16["memory"]["training"]["gradient_bytes_per_gpu"].get<double>(), 1e-12));
  // The forward passes are the same; the gradient exchange across DP carries twice the bytes.
  CHECK(fp32["phases_s"]["train"].get<double>() > bf16["phases_s"]["train"].get<double>());
  CHECK(fp32["phases_s"]["rollout"] == bf16["phases_s"]["rollout"]);
  CHECK_THAT(fp32["gpu_seconds_by_state"]["busy:ref_logprob"].get<double>(),
             WithinRel(bf16["gpu_seconds_by_state"]["busy:ref_logprob"].get<double>(), 1e-12));
}
