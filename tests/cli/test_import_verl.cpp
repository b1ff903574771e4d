// `rlsim import verl`: a verl trainer config with a launch script's overrides becomes a scenario
// that loads and runs, each verl setting where it belongs, the assumed and the unmodelled listed;
// a config rlsim cannot take is refused at the key that says so.
#include <catch2/catch.hpp>
#include <fstream>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using Catch::Matchers::Contains;

namespace {

// The shape of verl's ppo_trainer.yaml (a few of its keys, one interpolation as verl writes them).
const char* kConfig = R"(data:
  train_batch_size: 1024
  max_prompt_length: 512
  max_response_length: 512
actor_rollout_ref:
  model:
    path: ~/models/deepseek-llm-7b-chat
    enable_gradient_checkpointing: true
  actor:
    strategy: fsdp
    ppo_mini_batch_size: 256
    use_kl_loss: false
    fsdp_config:
      param_offload: false
      optimizer_offload: false
  rollout:
    name: vllm
    tensor_model_parallel_size: 2
    gpu_memory_utilization: 0.5
    n: 1
    response_length: ${oc.select:data.max_response_length,512}
algorithm:
  adv_estimator: gae
trainer:
  nnodes: 1
  n_gpus_per_node: 8
)";

// examples/grpo_trainer/run_qwen2-7b.sh's overrides (verl), with the model's 2.5 release and
// parameter offload on.
const char* kOverrides =
    " algorithm.adv_estimator=grpo data.train_batch_size=1024 data.max_prompt_length=512"
    " data.max_response_length=1024 actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct"
    " actor_rollout_ref.actor.ppo_mini_batch_size=256 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=40"
    " actor_rollout_ref.actor.use_kl_loss=True actor_rollout_ref.model.enable_gradient_checkpointing=True"
    " actor_rollout_ref.actor.fsdp_config.param_offload=True "
    "actor_rollout_ref.rollout.tensor_model_parallel_size=2"
    " actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.gpu_memory_utilization=0.6"
    " actor_rollout_ref.rollout.n=5 algorithm.use_kl_in_reward=False trainer.n_gpus_per_node=8 "
    "trainer.nnodes=1"
    " +actor_rollout_ref.rollout.max_num_seqs=1024 actor_rollout_ref.rollout.enforce_eager=True";

std::filesystem::path write_config(const std::filesystem::path& dir) {
  const auto path = dir / "ppo_trainer.yaml";
  std::ofstream(path) << kConfig;
  return path;
}

}  // namespace

TEST_CASE("import verl maps a launch script's config onto a scenario that runs", "[cli][import]") {
  const auto dir = scratch_dir("import-verl");
  const auto config = write_config(dir);
  const auto out = dir / "qwen.yaml";
  const CliResult r = run_rlsim("import verl '" + config.string() + "'" + kOverrides +
                                " --gpu H100 --name qwen --out '" + out.string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string scenario = slurp(out);
  CHECK_THAT(scenario, Contains("model: qwen2.5-7b") && Contains("gpu: H100, nodes: 1, gpus_per_node: 8") &&
                           Contains("prompts_per_step: 1024") && Contains("samples_per_prompt: 5") &&
                           Contains("max: 1024}") && Contains("tp: 2  #") && Contains("engine: vllm-v1") &&
                           Contains("max_batch: 1024") && Contains("max_model_len: 1536") &&
                           Contains("activation_memory_fraction: 0.4") && Contains("algorithm: grpo") &&
                           Contains("mini_batches: 4") && Contains("sharding: zero3") &&
                           Contains("recompute: full") && Contains("reference_model: true") &&
                           Contains("policy: {name: colocated}") &&
                           Contains("cuda_graphs: false  # not actor_rollout_ref.rollout.enforce_eager\n"));
  CHECK_THAT(r.out, Contains("without 'instruct'") && Contains("assumed (not in a verl config)") &&
                        Contains("fsdp_config.param_offload=True") &&
                        Contains("ppo_micro_batch_size_per_gpu=40"));
  const CliResult run =
      run_rlsim("run '" + out.string() + "' --set workload.steps=2 --out '" + (dir / "run").string() + "'");
  INFO(run.err);
  CHECK(run.exit_code == 0);

  // To standard output by default, the notes on standard error; the defaults of the file as verl's.
  const CliResult plain = run_rlsim("import verl '" + config.string() + "' --gpu H100 --model qwen2.5-7b");
  REQUIRE(plain.exit_code == 0);
  CHECK_THAT(
      plain.out,
      Contains("algorithm: ppo") && Contains("samples_per_prompt: 1") &&
          Contains("max_batch: 256  # actor_rollout_ref.rollout.max_num_seqs (verl's default at b178a3c") &&
          Contains("cuda_graphs: true  # not actor_rollout_ref.rollout.enforce_eager (verl's default"));
  CHECK_THAT(plain.err, Contains("--model qwen2.5-7b"));
}

TEST_CASE("import verl refuses what it cannot map, at the key that says so", "[cli][import]") {
  const auto dir = scratch_dir("import-verl-refused");
  const auto config = write_config(dir);
  const std::string base = "import verl '" + config.string() + "' --gpu H100";
  // The file's model path names no catalog model.
  CliResult r = run_rlsim(base);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Contains("ppo_trainer.yaml:7:11") && Contains("deepseek-llm-7b-chat") && Contains("--model"));
  r = run_rlsim(base + " --model qwen2.5-7b actor_rollout_ref.rollout.name=hf");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("actor_rollout_ref.rollout.name=hf") && Contains("vllm and sglang"));
  r = run_rlsim(base + " --model qwen2.5-7b actor_rollout_ref.actor.ppo_mini_batch_size=300");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("does not divide data.train_batch_size 1024"));
  r = run_rlsim(base + " --model qwen2.5-7b data.train_batch_size");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("expected key=value"));
  r = run_rlsim(base + " --model qwen2.5-7b --out '" + (dir / "x.yaml").string() +
                "' trainer.n_gpus_per_node=three");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("trainer.n_gpus_per_node: expected a whole number"));
  CHECK_FALSE(std::filesystem::exists(dir / "x.yaml"));
}

TEST_CASE("import and calibrate never write over a file they read") {
  const auto dir = scratch_dir("import-verl-overwrite");
  const auto config = write_config(dir);
  const std::string before = slurp(config);
  CliResult r = run_rlsim("import verl '" + config.string() + "' --gpu H100 --model qwen2.5-7b --out '" +
                          config.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("is also an input of this run"));
  CHECK(slurp(config) == before);
  const auto log = dir / "console.log";
  std::ofstream(log) << "step:1 - timing_s/gen:10 - timing_s/step:12\n";
  r = run_rlsim("calibrate --format verl --scenario scenarios/quickstart.yaml --input '" + log.string() +
                "' --out '" + log.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("is also an input of this run"));
  CHECK(slurp(log) == "step:1 - timing_s/gen:10 - timing_s/step:12\n");
}
