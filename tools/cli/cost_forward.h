// `rlsim cost prefill|decode`: one engine iteration of a model on a tensor-parallel group, as the
// simulator's instances cost it (sim/engine/instance_time.h): the forward pass's kernels, the TP
// all-reduces, the launch or CUDA-graph gaps and the CPU work of an engine preset, printed as a
// breakdown (text) or with `seconds` and each term (--json).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "sim/scenario/catalog.h"
#include "tools/cli/cost_target.h"

namespace rlsim {

class ForwardCost {
 public:
  /// A `prefill` subcommand when `prefill`, else `decode`.
  explicit ForwardCost(bool prefill) : prefill_(prefill) {}
  /// Adds the subcommand and its flags to the `cost` command.
  void add_to(CLI::App* cost);
  bool parsed() const { return sub_ && sub_->parsed(); }
  int run(const Catalog& catalog) const;

 private:
  bool prefill_;
  CLI::App* sub_ = nullptr;
  CostTarget target_;
  std::string model_, engine_, weights_ = "bf16", kv_cache_ = "bf16";
  int tp_ = 1;
  int pp_ = 1;
  int64_t batch_ = 1, prompt_ = 0, context_ = 0;
};

}  // namespace rlsim
