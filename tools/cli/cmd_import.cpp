// `rlsim import verl CONFIG.yaml [key=value ...] --gpu CARD`: another tool's run configuration turned
// into an rlsim scenario (tools/import/), checked by loading it before it is written.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/scenario/catalog.h"
#include "sim/scenario/scenario_loader.h"
#include "tools/cli/command.h"
#include "tools/import/verl_import.h"
#include "tools/report/output_dir.h"

namespace rlsim {
namespace {

class ImportCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("import", "Turn another tool's run configuration into a scenario");
    sub->add_option("framework", framework_, "The tool whose configuration it is: verl")
        ->required()
        ->check(CLI::IsMember({"verl"}));
    sub->add_option("config", config_,
                    "Its configuration file (verl: ppo_trainer.yaml or a config of that shape)")
        ->required();
    sub->add_option(
        "overrides", overrides_,
        "key=value overrides as the launch script passes them (Hydra: a.b=v, +a.b=v, ++a.b=v, ~a.b)");
    sub->add_option("--gpu", gpu_, "The card the run used (rlsim list hardware); a verl config does not say")
        ->required();
    sub->add_option(
        "--model", model_,
        "Catalog model to use (rlsim list models); default: read from actor_rollout_ref.model.path");
    sub->add_option("--name", name_, "The scenario's name (default: verl-import)");
    sub->add_option("--out", out_, "Scenario file to write (default: standard output)");
    sub->footer(
        "Maps the trainer config's GPUs, batch, samples per prompt, length caps, rollout engine and TP,\n"
        "KV memory, eager or CUDA-graph launches, mini-batches, FSDP or Megatron layout, gradient\n"
        "checkpointing, optimizer offload, the reference model (KL) and PPO's critic onto a colocated\n"
        "scenario, each field commented with the verl key it comes from. It lists what it assumed (the\n"
        "lengths below their caps: replace them with your run's response_length/mean and\n"
        "prompt_length/mean) and the verl settings rlsim does not model. The scenario is loaded and\n"
        "checked before it is written.\n\n"
        "Example (the overrides of verl's examples/grpo_trainer/run_qwen2-7b.sh, abridged):\n"
        "  rlsim import verl ppo_trainer.yaml algorithm.adv_estimator=grpo data.train_batch_size=1024 \\\n"
        "      actor_rollout_ref.model.path=Qwen/Qwen2-7B-Instruct actor_rollout_ref.rollout.n=5 \\\n"
        "      trainer.n_gpus_per_node=8 trainer.nnodes=1 --gpu H100 --out qwen2-7b-grpo.yaml\n"
        "  rlsim run qwen2-7b-grpo.yaml");
    return sub;
  }

  int run() override {
    const VerlConfig config = VerlConfig::load(config_, overrides_);
    const Catalog catalog = load_builtin_catalog();
    const ImportedScenario imported = import_verl(config, catalog, VerlImportOptions{gpu_, model_, name_});
    if (!out_.empty()) {
      prepare_output_file(out_, "--out");
      refuse_overwriting_inputs(out_, {config_}, "--out");
    }
    // Loaded as rlsim run will load it before it is shown or written (it names no other file).
    const std::filesystem::path check =
        std::filesystem::temp_directory_path() / ("rlsim-import-" + std::to_string(::getpid()) + ".yaml");
    replace_file_atomically(check, imported.yaml);
    try {
      load_scenario(check.string());
    } catch (const InputError& e) {
      std::filesystem::remove(check);
      throw InputError(SourceLocation{config_, 0, 0}, "the imported scenario does not load (" + e.message() +
                                                          "); check the config's values");
    }
    std::filesystem::remove(check);
    std::ostream& notes = out_.empty() ? std::cerr : std::cout;
    if (out_.empty()) {
      std::cout << imported.yaml;
    } else {
      replace_file_atomically(out_, imported.yaml);
      notes << "scenario written to " << out_ << " (run it: rlsim run " << out_ << ")\n";
    }
    notes << "model: " << imported.model_reading << "\n";
    notes << "assumed (not in a verl config):\n";
    for (const std::string& line : imported.assumed) notes << "  " << line << "\n";
    notes << "not mapped (rlsim does not model it):" << (imported.not_mapped.empty() ? " none" : "") << "\n";
    for (const std::string& line : imported.not_mapped) notes << "  " << line << "\n";
    return kExitOk;
  }

 private:
  std::string framework_;
  std::string config_;
  std::vector<std::string> overrides_;
  std::string gpu_;
  std::string model_;
  std::string name_;
  std::string out_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ImportCommand, "import", 72);
}  // namespace rlsim
