// `rlsim diff RUN_A RUN_B`: what changed between two run output folders — the resolved inputs and
// every figure of metrics.json — so a what-if reads as a list of changes, not two dumps.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "calibrate/json_input.h"
#include "models/input_error.h"
#include "models/input_file.h"
#include "sim/scenario/scenario_header.h"
#include "tools/cli/command.h"
#include "tools/report/input_diff.h"
#include "tools/report/run_diff.h"

namespace rlsim {
namespace {
namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::error_code error;
  if (!fs::exists(file, error))
    throw InputError({file.string(), 0, 0}, "expected a run's output file, found none");
  return read_input_file(file.string(), kMaxInputFileBytes, InputRole::bookkeeping);  // no FIFO, bounded
}

/// A run's resolved.yaml: what makes a folder a run's (`rlsim run`'s, or one policy's of `compare`).
std::string read_resolved(const fs::path& dir) {
  const fs::path file = dir / "resolved.yaml";
  std::error_code error;
  if (!fs::is_directory(dir, error))
    throw InputError({dir.string(), 0, 0}, "expected a run's output folder, found no folder");
  if (!fs::exists(file, error))
    throw InputError(
        {file.string(), 0, 0},
        "expected a run's output folder (rlsim run --out, or a policy's folder of rlsim compare), "
        "found no resolved.yaml");
  std::string text = read_text(file);
  if (text.rfind(kResolvedYamlHeader, 0) != 0)
    throw InputError({file.string(), 1, 1},
                     "expected the resolved.yaml rlsim writes (its first line is '" +
                         std::string(kResolvedYamlHeader, sizeof kResolvedYamlHeader - 2) + "')");
  return text;
}

nlohmann::json read_metrics(const fs::path& dir) {
  const fs::path file = dir / "metrics.json";
  // Bounded depth and located errors: a hand-edited file nested 50,000 deep must not overflow the stack.
  nlohmann::json metrics = parse_json_input(read_text(file), file.string());
  if (!metrics.is_object())
    throw InputError({file.string(), 1, 1}, "expected a JSON object of a run's figures");
  return metrics;
}

class DiffCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("diff", "What changed between two run output folders");
    sub->add_option("RUN_A", a_, "Output folder of the first run (with metrics.json)")->required();
    sub->add_option("RUN_B", b_, "Output folder of the second run")->required();
    sub->footer(
        "Prints every input that changed, compared on meaning (resolved.yaml as a tree: path: before ->\n"
        "after, pools and other named list items by name), then every metrics.json figure that changed\n"
        "with its relative change, the biggest first. Exit code 0 whether or not anything changed.\n\n"
        "Example:\n"
        "  rlsim run scenarios/quickstart.yaml --out out/a\n"
        "  rlsim run scenarios/quickstart.yaml --set rollout.max_batch=64 --out out/b\n"
        "  rlsim diff out/a out/b");
    return sub;
  }

  int run() override {
    const std::string inputs_a = read_resolved(a_), inputs_b = read_resolved(b_);
    const nlohmann::json ma = read_metrics(a_), mb = read_metrics(b_);
    const std::vector<FigureChange> inputs =
        diff_inputs(inputs_a, inputs_b, (fs::path(a_) / "resolved.yaml").string(),
                    (fs::path(b_) / "resolved.yaml").string());
    std::cout << diff_report(a_, b_, inputs, diff_metrics(ma, mb));
    return kExitOk;
  }

 private:
  std::string a_, b_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(DiffCommand, "diff", 27);
}  // namespace rlsim
