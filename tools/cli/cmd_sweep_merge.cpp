// `rlsim sweep-merge DIR [DIR…] [--out OUT]`: joins the shard CSVs of one sweep (the folders'
// sweep.csv and sweep-shard-I-of-N.csv files, all written for the same sweep.json) into
// OUT/sweep.csv — byte for byte what one unsharded run writes — then prints the summary and writes
// the plot, as `rlsim sweep` does at the end.
#include <algorithm>
#include <iostream>

#include "tools/cli/command.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"
#include "tools/sweep/sweep_objective.h"
#include "tools/sweep/sweep_points.h"
#include "tools/sweep/sweep_report.h"

namespace rlsim {
namespace {
namespace fs = std::filesystem;

class SweepMergeCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("sweep-merge", "Join the shards of a sweep into one sweep.csv");
    sub->add_option("dirs", dirs_, "Sweep folders holding shard CSVs (one shared folder, or one per shard)")
        ->required();
    sub->add_option("--out", out_, "Folder for the merged sweep.csv (default: the first folder)");
    sub->add_option("--objective", objective_,
                    "The figure that picks the best point (a metric column of sweep.csv; default: "
                    "step_time_s for RL, output_tokens_per_s for serve, tokens_per_s_per_gpu meeting the "
                    "target for AFD)");
    sub->add_flag("--pareto", pareto_,
                  "Also print and write (pareto.csv) the cost-per-1M-tokens vs TPOT frontier");
    sub->add_flag("--allow-partial", allow_partial_, "Merge even when some points are missing");
    sub->footer(
        "Every folder must hold the same sweep.json (same scenario, axes and columns). Points missing\n"
        "from all shards are listed and make the merge fail (exit 2) unless --allow-partial.\n\n"
        "Examples:\n"
        "  rlsim sweep-merge /shared/sweep                       # shards written into one folder\n"
        "  rlsim sweep-merge out/shard-1 out/shard-2 --out out/all");
    return sub;
  }

  int run() override {
    const SweepManifest manifest = read_sweep_manifest(dirs_.front());
    const std::unique_ptr<ScenarioKind> kind =
        make_scenario_kind(manifest.kind, {manifest_path(dirs_.front()).string(), 1, 1});
    const SweepObjective objective =
        chosen_sweep_objective(objective_, kind->default_sweep_objective(), kind->sweep_columns());
    SweepTable merged;
    merged.header = manifest.header;
    for (const auto& dir : dirs_) {
      if (read_sweep_manifest(dir).to_json() != manifest.to_json()) {
        throw InputError({manifest_path(dir).string(), 1, 1},
                         "describes another sweep than " + manifest_path(dirs_.front()).string());
      }
      for (const auto& file : sweep_files(dir)) {
        const SweepTable shard = read_sweep_csv(file);
        if (shard.header != manifest.header) {
          throw InputError({file.string(), 1, 1}, "its columns differ from the sweep's manifest");
        }
        check_rows_in_grid(shard, manifest, file);
        for (const auto& [point, cells] : shard.rows) {
          auto [it, inserted] = merged.rows.emplace(point, cells);
          if (!inserted && it->second != cells) {
            throw InputError({file.string(), 0, 0},
                             "point " + std::to_string(point) + " differs from another shard's");
          }
        }
      }
    }
    std::vector<long> missing;
    for (long point = 0; point < manifest.points; ++point) {
      if (!merged.rows.count(point)) missing.push_back(point);
    }
    if (!missing.empty() && !allow_partial_) {
      std::string list;
      for (size_t k = 0; k < std::min<size_t>(missing.size(), 10); ++k)
        list += (k ? ", " : "") + std::to_string(missing[k]);
      throw InputError({dirs_.front(), 0, 0}, std::to_string(missing.size()) + " of " +
                                                  std::to_string(manifest.points) + " points are missing (" +
                                                  list + (missing.size() > 10 ? ", …" : "") +
                                                  "); rerun their shards, or merge with --allow-partial");
    }
    const fs::path out = out_.empty() ? fs::path(dirs_.front()) : fs::path(out_);
    claim_sweep_dir(out, manifest);
    write_sweep_csv(out / "sweep.csv", merged);
    SweepSummary summary =
        summarize_sweep(merged, manifest, kind->sweep_report(merged, manifest, objective), pareto_);
    std::vector<fs::path> searched(dirs_.begin(), dirs_.end());
    summary.text +=
        sweep_winner_line(merged, manifest, objective) + outside_fitted_range_text(merged, searched);
    std::cout << summary.text;
    write_sweep_outputs(out, summary);
    write_sweep_metrics_csv(out, merged, 1 + manifest.axes.size(), searched);
    std::cout << "merged " << merged.rows.size() << " points -> " << (out / "sweep.csv").string() << "\n";
    return kExitOk;
  }

 private:
  /// sweep.csv and the shard CSVs of `dir`, in name order (the merged output itself excluded when
  /// it is being rewritten: its rows are the shards' anyway).
  static std::vector<fs::path> sweep_files(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (name == "sweep.csv" || (name.rfind("sweep-shard-", 0) == 0 && entry.path().extension() == ".csv")) {
        files.push_back(entry.path());
      }
    }
    std::sort(files.begin(), files.end());
    return files;
  }

  std::vector<std::string> dirs_;
  std::string out_;
  std::string objective_;
  bool pareto_ = false;
  bool allow_partial_ = false;
};

}  // namespace
RLSIM_REGISTER_COMMAND(SweepMergeCommand, "sweep-merge", 41);
}  // namespace rlsim
