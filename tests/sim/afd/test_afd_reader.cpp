// The AFD scenario schema: defaults, model edits, the default sweep, kind dispatch, and located
// errors for bad input.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "sim/platform/topology.h"
#include "tests/sim/afd/afd_test_support.h"

using namespace rlsim;
using namespace rlsim::test;

namespace {

const std::string kAfd = R"(kind: afd
model: step3
cluster:
  pools:
    - {name: attention, gpu: H800, nodes: 1}
    - {name: ffn, gpu: H20, nodes: 1}
  links: [{between: [attention, ffn], bandwidth: 6.4Tbps}]
afd:
  attention: {pool: attention}
  ffn: {pool: ffn, gpus: 4}
  batch: 256
)";

std::string error_of(const std::string& yaml, std::vector<std::string> overrides = {}) {
  try {
    const auto loaded = load_afd(write_scenario("afd-bad", yaml), std::move(overrides));
    Topology topology(loaded.scenario.cluster, ServiceZones::optional);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("afd-step3 loads with its deployment, precisions and default sweep") {
  const LoadedAfdScenario loaded = load_afd(step3_file());
  const AfdScenario& s = loaded.scenario;
  CHECK(s.model.name == "step3");
  CHECK(s.afd.attention_gpus == 16);
  CHECK(s.afd.ffn_gpus == 16);
  CHECK(s.afd.micro_batches == 3);
  CHECK(s.afd.context == 4096);
  CHECK(s.afd.target_tpot_s == Approx(0.05));
  CHECK(s.afd.precisions.dispatch == Precision::fp8);
  CHECK(s.afd.precisions.combine == Precision::bf16);
  CHECK(s.cluster.pool("ffn")->card.name == "H20");
  CHECK(s.cluster.pool("attention")->nic.bandwidth_bytes_per_s == Approx(50e9));
  REQUIRE(s.sweep.size() == 1);
  CHECK(s.sweep.front().path == "afd.batch");
  CHECK_THAT(loaded.resolved_yaml, Catch::Contains("kind: afd") && Catch::Contains("iterations: 2"));
  CHECK(scenario_kind(step3_file(), {}, {"rl", "afd"}) == "afd");
}

TEST_CASE("defaults: all GPUs of each pool, first pool attention, last pool FFN") {
  const std::string yaml = R"(kind: afd
model: qwen3-235b-a22b
cluster:
  pools: [{name: a, gpu: H800, nodes: 2}, {name: f, gpu: H20, nodes: 1}]
  links: [{between: [a, f], bandwidth: 6.4Tbps}]
afd: {batch: 64}
)";
  const AfdScenario s = load_afd(write_scenario("afd-defaults", yaml)).scenario;
  CHECK(s.afd.attention_pool == "a");
  CHECK(s.afd.attention_gpus == 16);
  CHECK(s.afd.ffn_pool == "f");
  CHECK(s.afd.ffn_gpus == 8);
  CHECK(s.cost_model.name == "roofline");
  CHECK(s.sweep.empty());
}

TEST_CASE("one pool may hold both sides") {
  const std::string yaml = R"(kind: afd
model: step3
cluster: {pools: [{name: p, gpu: H800, nodes: 4}]}
afd: {attention: {pool: p, gpus: 16}, ffn: {pool: p}, batch: 64}
)";
  const AfdScenario s = load_afd(write_scenario("afd-one-pool", yaml)).scenario;
  CHECK(s.afd.ffn_gpus == 16);  // what the attention side left
  CHECK(s.afd.ffn_tp == 1);     // plain EP unless asked
  // Expert groups must sit in one node: after 12 attention GPUs the FFN side starts mid-node.
  CHECK_THAT(error_of(yaml, {"afd.attention.gpus=12", "afd.ffn.gpus=16", "afd.ffn.tp=8"}),
             Catch::Contains("starts at GPU 12"));
  CHECK(load_afd(write_scenario("afd-one-pool", yaml), {"afd.ffn.tp=8"}).scenario.afd.ffn_tp == 8);
  CHECK_THAT(error_of(yaml, {"afd.ffn.gpus=17"}),
             Catch::Contains("--set afd.ffn.gpus=17") && Catch::Contains("from 1 to 16"));
}

TEST_CASE("model_edits change the structure for design sweeps") {
  const AfdScenario s = load_afd(step3_file(), {"model_edits.routed_experts=96",
                                                "model_edits.experts_per_token=6", "model_edits.layers=40"})
                            .scenario;
  CHECK(s.model.ffn.routed_experts == 96);
  CHECK(s.model.ffn.experts_per_token == 6);
  CHECK(s.model.layers == 40);
  for (int layer : s.model.ffn.dense_layers) CHECK(layer < 40);  // layer 60's dense FFN is gone
  const std::string dense = R"(kind: afd
model: qwen3-8b
cluster: {pools: [{name: p, gpu: H800, nodes: 2}]}
afd: {attention: {gpus: 8}, batch: 64}
model_edits: {routed_experts: 8}
)";
  CHECK_THAT(error_of(dense), Catch::Contains("is dense"));
}

TEST_CASE("bad AFD input is located, with suggestions") {
  CHECK_THAT(error_of(kAfd, {"afd.micro_batch=2"}),
             Catch::Contains("micro_batch") && Catch::Contains("micro_batches"));
  CHECK_THAT(error_of(kAfd, {"afd.batch=2"}), Catch::Contains("smaller than micro_batches"));
  CHECK_THAT(error_of(kAfd, {"afd.ffn.pool=fnn"}), Catch::Contains("did you mean 'ffn'"));
  CHECK_THAT(error_of(kAfd, {"afd.ffn.gpus=9"}), Catch::Contains("from 1 to 8"));
  std::string odd_groups = kAfd;
  odd_groups.replace(odd_groups.find("gpus: 4}"), 8, "gpus: 4, tp: 3}");
  CHECK_THAT(error_of(odd_groups),
             Catch::Contains("afd-bad.yaml:10:") && Catch::Contains("does not divide the 4 FFN GPUs"));
  CHECK_THAT(error_of(kAfd, {"afd.ffn.tp=16"}), Catch::Contains("tp") && Catch::Contains("from 1 to 8"));
  CHECK(error_of(kAfd, {"afd.ffn.tp=4"}) == "no error");
  CHECK_THAT(error_of(kAfd, {"afd.target_tpot=50"}), Catch::Contains("target_tpot"));
  CHECK_THAT(error_of(kAfd, {"afd.dispatch=fp7"}), Catch::Contains("valid values are"));
  CHECK_THAT(error_of(kAfd, {"cost_model.name=magic"}),
             Catch::Contains("magic") && Catch::Contains("roofline"));
  CHECK_THAT(error_of(kAfd + "sweep: {params: {afd.batch: {lo: 1}}}\n"),
             Catch::Contains("expected a list of values"));
  CHECK_THAT(error_of(kAfd + "workload: {steps: 1}\n"), Catch::Contains("unknown key 'workload'"));
  CHECK_THAT(error_of(kAfd, {"cluster.pools.1.name=spare", "cluster.links.0.between=[attention, spare]",
                             "afd.ffn.pool=attention", "afd.attention.gpus=4"}),
             Catch::Contains("pool 'spare' is used by neither"));
  // The two pools must reach each other; the agent and data-plane hosts need no link.
  const std::string unlinked = R"(kind: afd
model: step3
cluster: {pools: [{name: a, gpu: H800, nodes: 1}, {name: f, gpu: H20, nodes: 1}]}
afd: {batch: 64}
)";
  CHECK_THAT(error_of(unlinked), Catch::Contains("cannot reach"));
  CHECK(error_of(kAfd) == "no error");
}

TEST_CASE("the RL loader and the AFD loader each reject the other kind at 'kind'") {
  LoadOptions options;
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  CHECK_THROWS_WITH(load_scenario(step3_file(), options),
                    Catch::Contains("afd-step3.yaml:") && Catch::Contains("AFD scenario"));
  const std::string quickstart = std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/quickstart.yaml";
  CHECK(scenario_kind(quickstart, {}, {"rl", "afd"}) == "rl");
  CHECK_THROWS_WITH(load_afd(quickstart), Catch::Contains("kind: afd"));
  CHECK_THROWS_WITH(scenario_kind(quickstart, {{"kind=dpo"}, std::nullopt, ""}, {"rl", "afd"}),
                    Catch::Contains("valid values are: rl, afd"));
}
