// A verl trainer config as an rlsim scenario (verl_import.h).
#include "tools/import/verl_import.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "models/units.h"

namespace rlsim {
namespace {

const std::string kActor = "actor_rollout_ref.actor.";
const std::string kRollout = "actor_rollout_ref.rollout.";
const std::string kModel = "actor_rollout_ref.model.";

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string number_text(double value) { return format_number(value); }

/// The catalog model a Hugging Face path names: its last component in lower case, as it is or
/// without the variant words of fine-tuned checkpoints (instruct, chat, base, it, math, hf).
std::string read_model(const VerlConfig& c, const Catalog& catalog, const std::string& override_name,
                       std::string& reading) {
  if (!override_name.empty()) {
    catalog.model(override_name, {"--model", 0, 0});  // InputError with the catalog's list when unknown
    reading = "--model " + override_name;
    return override_name;
  }
  const std::string key = kModel + "path";
  const std::string path = c.text_or(key, "~/models/deepseek-llm-7b-chat");
  std::string name =
      lower(path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1));
  const std::vector<std::string> names = catalog.model_names();
  auto known = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  if (known(name)) {
    reading = key + " " + path + " -> " + name;
    return name;
  }
  std::string stripped;
  std::istringstream words(name);
  std::vector<std::string> dropped;
  for (std::string word; std::getline(words, word, '-');) {
    if (word == "instruct" || word == "chat" || word == "base" || word == "it" || word == "math" ||
        word == "hf")
      dropped.push_back(word);
    else
      stripped += (stripped.empty() ? "" : "-") + word;
  }
  if (known(stripped)) {
    std::string without;
    for (const std::string& w : dropped) without += (without.empty() ? "" : ", ") + w;
    reading = key + " " + path + " -> " + stripped + " (the same shape without '" + without + "')";
    return stripped;
  }
  throw InputError(c.where(key), key + " '" + path + "' names no catalog model (tried '" + name + "' and '" +
                                     stripped +
                                     "'): pass --model NAME (rlsim list models), or add the model "
                                     "to a catalog file");
}

}  // namespace

ImportedScenario import_verl(const VerlConfig& c, const Catalog& catalog, const VerlImportOptions& o) {
  ImportedScenario out;
  const HardwareSpec& card = catalog.card(o.card, {"--gpu", 0, 0});
  const std::string model = read_model(c, catalog, o.model, out.model_reading);

  const long long nodes = c.integer_or("trainer.nnodes", 1);
  const long long per_node = c.integer_or("trainer.n_gpus_per_node", 8);
  const long long batch = c.integer_or("data.train_batch_size", 1024);
  const long long n = c.integer_or(kRollout + "n", 1);
  const long long max_prompt = c.integer_or("data.max_prompt_length", 512);
  const long long max_response = c.integer_or("data.max_response_length", 512);
  const long long rollout_tp = c.integer_or(kRollout + "tensor_model_parallel_size", 2);
  const std::string engine_name = c.text_or(kRollout + "name", "vllm");
  std::string engine;
  if (engine_name == "vllm")
    engine = "vllm-v1";
  else if (engine_name == "sglang")
    engine = "sglang";
  else
    throw InputError(c.where(kRollout + "name"), kRollout + "name '" + engine_name +
                                                     "': rlsim has engine presets for vllm and sglang only "
                                                     "(rlsim list engines)");
  const bool max_seqs_set = c.has(kRollout + "max_num_seqs");
  const long long max_seqs = c.integer_or(kRollout + "max_num_seqs", 256);
  const double memory_use = c.number_or(kRollout + "gpu_memory_utilization", 0.5);
  const long long model_len = c.integer_or(kRollout + "max_model_len", max_prompt + max_response);
  const bool eager_set = c.has(kRollout + "enforce_eager");
  const bool eager = c.flag_or(kRollout + "enforce_eager", false);

  const std::string estimator = c.text_or("algorithm.adv_estimator", "gae");
  const bool critic = c.flag_or("critic.enable", estimator == "gae");
  const long long mini = c.integer_or(kActor + "ppo_mini_batch_size", 256);
  const long long epochs = c.integer_or(kActor + "ppo_epochs", 1);
  if (mini <= 0 || batch % mini != 0)
    throw InputError(c.where(kActor + "ppo_mini_batch_size"),
                     kActor + "ppo_mini_batch_size " + std::to_string(mini) +
                         " does not divide data.train_batch_size " + std::to_string(batch) +
                         " into whole mini-batches");
  const long long mini_batches = batch / mini * epochs;
  const std::string strategy = c.text_or(kActor + "strategy", "fsdp");
  const bool megatron = strategy == "megatron";
  const long long train_tp = megatron ? c.integer_or(kActor + "megatron.tensor_model_parallel_size", 1) : 1;
  const long long train_pp = megatron ? c.integer_or(kActor + "megatron.pipeline_model_parallel_size", 1) : 1;
  const bool checkpointing = c.flag_or(kModel + "enable_gradient_checkpointing", true);
  const bool kl = c.flag_or(kActor + "use_kl_loss", false) || c.flag_or("algorithm.use_kl_in_reward", false);
  const bool optimizer_offload = c.flag_or(kActor + "fsdp_config.optimizer_offload", false);
  const bool balance = c.flag_or("trainer.balance_batch", true);

  // What no verl key holds: lengths below their caps, the card, the network.
  const double prompt_low = std::max(1.0, std::round(max_prompt / 4.0));
  const double response_mean = std::round(max_response / 2.0);
  const double sequence = std::round((prompt_low + max_prompt) / 2.0 + response_mean);
  out.assumed = {
      "cluster.pools[gpus].gpu: " + card.name + " (--gpu; a verl config does not name its cards)",
      "workload.prompt_tokens: uniform " + number_text(prompt_low) + " to " + std::to_string(max_prompt) +
          " (a verl config gives only the cap; set it from your run's prompt_length/mean)",
      "workload.output_tokens: lognormal, mean " + number_text(response_mean) +
          ", sigma 0.8 (a verl config gives "
          "only the cap; set the mean from your run's response_length/mean)",
      "training.sequence_tokens: " + number_text(sequence) + " (the assumed mean prompt + response)",
      "cluster.links: 200 Gbps to the agents and the data plane (rlsim's; verl's reward runs on the driver)",
      "workload.steps: 8 (rlsim's steady-state window; verl runs trainer.total_training_steps)"};

  auto unmodelled = [&](const std::string& key, const std::string& value, const std::string& why) {
    out.not_mapped.push_back(key + "=" + value + ": " + why);
  };
  if (c.flag_or(kActor + "fsdp_config.param_offload", false))
    unmodelled(kActor + "fsdp_config.param_offload", "True",
               "rlsim does not price moving parameters to the host");
  if (c.flag_or("actor_rollout_ref.ref.fsdp_config.param_offload", false))
    unmodelled("actor_rollout_ref.ref.fsdp_config.param_offload", "True",
               "rlsim does not price moving parameters to the host");
  if (c.flag_or(kActor + "use_dynamic_bsz", false))
    unmodelled(kActor + "use_dynamic_bsz", "True",
               "rlsim balances sequences over the ranks by tokens but does not cut micro-batches at "
               "ppo_max_token_len_per_gpu");
  if (c.has(kActor + "ppo_micro_batch_size_per_gpu"))
    unmodelled(kActor + "ppo_micro_batch_size_per_gpu",
               c.text_or(kActor + "ppo_micro_batch_size_per_gpu", ""),
               "rlsim does not model micro-batch sizes (their padding and launch count)");
  if (c.integer_or(kActor + "ulysses_sequence_parallel_size", 1) > 1)
    unmodelled(kActor + "ulysses_sequence_parallel_size",
               c.text_or(kActor + "ulysses_sequence_parallel_size", ""),
               "rlsim does not model Ulysses sequence parallelism; training runs data-parallel");
  if (!c.flag_or(kModel + "use_remove_padding", true))
    unmodelled(kModel + "use_remove_padding", "False", "rlsim packs sequences; it does not price padding");
  if (estimator != "gae" && estimator != "grpo")
    unmodelled("algorithm.adv_estimator", estimator,
               "simulated as GRPO (no critic); its advantage arithmetic is not timed");

  std::ostringstream y;
  y << "# Imported by `rlsim import verl` from " << c.file()
    << ": each field names the verl key it comes from;\n"
    << "# ASSUMED marks what a verl config does not hold. Replace the assumed lengths with your run's.\n"
    << "name: " << (o.name.empty() ? "verl-import" : o.name) << "\n"
    << "seed: 1\n"
    << "model: " << model << "  # " << out.model_reading << "\n"
    << "cluster:\n  pools:\n"
    << "    - {name: gpus, gpu: " << card.name << ", nodes: " << nodes << ", gpus_per_node: " << per_node
    << "}  # trainer.nnodes, trainer.n_gpus_per_node; gpu: ASSUMED (--gpu)\n"
    << "  links:\n"
    << "    - {between: [agents, gpus], bandwidth: 200Gbps}  # ASSUMED\n"
    << "    - {between: [dataplane, gpus], bandwidth: 200Gbps}  # ASSUMED\n"
    << "workload:\n"
    << "  steps: 8  # ASSUMED: rlsim's window; verl runs trainer.total_training_steps\n"
    << "  prompts_per_step: " << batch << "  # data.train_batch_size\n"
    << "  samples_per_prompt: " << n << "  # actor_rollout_ref.rollout.n\n"
    << "  prompt_tokens: {uniform: {min: " << number_text(prompt_low) << ", max: " << max_prompt
    << "}}  # ASSUMED below data.max_prompt_length\n"
    << "  output_tokens: {lognormal: {mean: " << number_text(response_mean)
    << ", sigma: 0.8}, max: " << max_response << "}  # mean ASSUMED; max: data.max_response_length\n"
    << "rollout:\n"
    << "  pool: gpus\n"
    << "  tp: " << rollout_tp << "  # actor_rollout_ref.rollout.tensor_model_parallel_size\n"
    << "  engine: " << engine << "  # actor_rollout_ref.rollout.name: " << engine_name << "\n"
    << "  max_batch: " << max_seqs << "  # actor_rollout_ref.rollout.max_num_seqs"
    << (max_seqs_set ? "" : " (verl's default at b178a3c; 1024 through v0.7.0)") << "\n"
    << "  max_model_len: " << model_len << "  # data.max_prompt_length + data.max_response_length\n"
    << "  activation_memory_fraction: " << number_text(std::round((1.0 - memory_use) * 1000.0) / 1000.0)
    << "  # 1 - actor_rollout_ref.rollout.gpu_memory_utilization " << number_text(memory_use) << "\n"
    << "  cuda_graphs: " << (eager ? "false" : "true") << "  # not actor_rollout_ref.rollout.enforce_eager"
    << (eager_set ? "" : " (verl's default at b178a3c: False; True through v0.5.0)") << "\n"
    << "training:\n"
    << "  pool: gpus\n"
    << "  algorithm: " << (critic ? "ppo" : "grpo") << "  # algorithm.adv_estimator: " << estimator << "\n"
    << "  tp: " << train_tp << "\n  pp: " << train_pp << "  # actor_rollout_ref.actor.strategy: " << strategy
    << "\n"
    << "  mini_batches: " << mini_batches
    << "  # data.train_batch_size / actor.ppo_mini_batch_size x ppo_epochs\n"
    << "  sharding: " << (megatron ? "zero1" : "zero3") << "  # " << strategy
    << (megatron ? ": Megatron's distributed optimizer" : ": FSDP shards weights, gradients and optimizer")
    << "\n"
    << "  recompute: " << (checkpointing ? "full" : "none")
    << "  # actor_rollout_ref.model.enable_gradient_checkpointing\n"
    << "  offload_optimizer: " << (optimizer_offload ? "true" : "false")
    << "  # actor.fsdp_config.optimizer_offload\n"
    << "  reference_model: " << (kl ? "true" : "false")
    << "  # actor.use_kl_loss or algorithm.use_kl_in_reward\n"
    << "  balance: " << (balance ? "tokens" : "none") << "  # trainer.balance_batch\n"
    << "  sequence_tokens: " << number_text(sequence) << "  # ASSUMED: the assumed mean prompt + response\n"
    << "policy: {name: colocated}  # verl's hybrid engine: rollout and training time-share the GPUs\n";
  out.yaml = y.str();
  return out;
}

}  // namespace rlsim
