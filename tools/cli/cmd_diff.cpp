// `rlsim diff RUN_A RUN_B`: what changed between two run output folders — the resolved inputs and
// every figure of metrics.json — so a what-if reads as a list of changes, not two dumps.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "models/input_error.h"
#include "models/input_file.h"
#include "tools/cli/command.h"
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

nlohmann::json read_metrics(const fs::path& dir) {
  const fs::path file = dir / "metrics.json";
  try {
    return nlohmann::json::parse(read_text(file));
  } catch (const nlohmann::json::exception& e) {  // malformed, or a number too large for a double
    throw InputError({file.string(), 1, 1}, std::string("expected JSON: ") + e.what());
  }
}

class DiffCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("diff", "What changed between two run output folders");
    sub->add_option("RUN_A", a_, "Output folder of the first run (with metrics.json)")->required();
    sub->add_option("RUN_B", b_, "Output folder of the second run")->required();
    sub->footer(
        "Prints the resolved.yaml lines that differ (the inputs), then every metrics.json figure that\n"
        "changed with its relative change. Exit code 0 whether or not anything changed.\n\nExample:\n"
        "  rlsim run scenarios/quickstart.yaml --out out/a\n"
        "  rlsim run scenarios/quickstart.yaml --set rollout.max_batch=64 --out out/b\n"
        "  rlsim diff out/a out/b");
    return sub;
  }

  int run() override {
    const nlohmann::json ma = read_metrics(a_), mb = read_metrics(b_);
    std::vector<std::string> inputs;
    if (fs::exists(fs::path(a_) / "resolved.yaml") && fs::exists(fs::path(b_) / "resolved.yaml"))
      inputs =
          diff_lines(read_text(fs::path(a_) / "resolved.yaml"), read_text(fs::path(b_) / "resolved.yaml"));
    std::cout << diff_report(a_, b_, inputs, diff_metrics(ma, mb));
    return kExitOk;
  }

 private:
  std::string a_, b_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(DiffCommand, "diff", 27);
}  // namespace rlsim
