// `rlsim sweep S.yaml --param a.b=v1,v2 --param c=lo:hi:step … [--jobs N] [--shard I/N] [--out DIR]`:
// the product grid over any scenario fields, each point simulated in a process of its own, rows
// appended to DIR/sweep.csv as points finish (a rerun resumes, skipping finished points), then the
// file sorted by point, a summary printed (ending with the validated cases nearest to each setup
// the points run) and a plot written. AFD scenarios may declare their
// default grid (`sweep:`), so `rlsim sweep scenarios/afd-step3.yaml --out DIR` needs no flags.
#include <algorithm>
#include <iostream>
#include <map>
#include <unordered_map>

#include "build_info.h"
#include "models/input_file.h"
#include "sim/process/child_pool.h"
#include "sim/scenario/memory_check.h"
#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/output_dir.h"
#include "tools/report/progress.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"
#include "tools/sweep/sweep_objective.h"
#include "tools/sweep/sweep_points.h"
#include "tools/sweep/sweep_report.h"
#include "tools/validation/validation_record.h"

namespace rlsim {
namespace {
namespace fs = std::filesystem;

class SweepCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("sweep", "Run a grid of scenario variants (resumable, shardable)");
    args_.add_to(sub);
    sub->add_option(
        "--param", params_,
        "Swept field: path=v1,v2,… or path=lo:hi:step (any --set path; a value may be a YAML mapping, "
        "e.g. workload.output_tokens=500,{uniform: {min: 500, max: 525}}); repeatable, the grid is the "
        "product. Default: the scenario's own sweep: section");
    sub->add_option("--jobs,-j", jobs_, "Points simulated in parallel processes")
        ->capture_default_str()
        ->check(CLI::Range(1, 1024));
    sub->add_option("--shard", shard_, "Run only slice I of N (points whose number is I-1 mod N), e.g. 3/8");
    sub->add_option("--out", out_,
                    "Sweep folder (sweep.json, sweep.csv, sweep-metrics.csv, points/N/metrics.json, "
                    "sweep.svg); rerun to resume")
        ->capture_default_str();
    sub->add_flag("--skip-invalid", skip_invalid_,
                  "Record points that fail to load (e.g. do not fit in GPU memory) or that their simulation "
                  "refuses (e.g. arrivals that outpace the deployment) as rows with their reason instead of "
                  "stopping with exit 2");
    sub->add_flag("--quiet,-q", quiet_, "No line per finished point (with its time, elapsed time and ETA)");
    sub->add_option("--objective", objective_,
                    "The figure that picks the best point (a metric column of sweep.csv; default: "
                    "step_time_s for RL, output_tokens_per_s for serve, tokens_per_s_per_gpu meeting the "
                    "target for AFD)");
    sub->add_flag("--pareto", pareto_,
                  "Also print and write (pareto.csv) the cost-per-1M-tokens vs TPOT frontier");
    sub->footer(
        "Each point runs in its own process; its row is appended to DIR/sweep.csv as soon as it\n"
        "finishes, so an interrupted sweep resumes where it stopped when run again with the same\n"
        "arguments. With --shard I/N the rows go to DIR/sweep-shard-I-of-N.csv; join the shards with\n"
        "`rlsim sweep-merge DIR`. Every row says whether the point fits in GPU memory (fits_memory).\n"
        "Each point keeps its whole metrics.json under DIR/points/N/, and DIR/sweep-metrics.csv has one\n"
        "row per point with every scalar of it as a column (ttft_s.p99, bubble_by_cause.<cause>, ...).\n"
        "A point that does not load (e.g. does not fit) stops the sweep with exit 2 before anything\n"
        "runs; with --skip-invalid it becomes a row with its reason (invalid_reason), as does a point\n"
        "its simulation refuses, never best nor\n"
        "on the Pareto frontier. AFD sweeps print the best batch under the TPOT target and the knee\n"
        "where transfer starts to dominate, and plot TPOT and throughput per GPU against batch.\n\n"
        "Examples:\n"
        "  rlsim sweep scenarios/afd-step3.yaml --out out/step3-sweep\n"
        "  rlsim sweep scenarios/afd-step3.yaml --param afd.batch=512:4096:512 \\\n"
        "      --param cluster.nic.bandwidth=200Gbps,400Gbps --jobs 4 --out out/step3-nic\n"
        "  rlsim sweep scenarios/afd-step3.yaml --param model_edits.routed_experts=32,48,64 \\\n"
        "      --param cluster.pools.ffn.gpu=H20,H800 --pareto --out out/step3-design\n"
        "  rlsim sweep scenarios/quickstart.yaml --param rollout.max_batch=32,64,128 --out out/qs-sweep\n"
        "  rlsim sweep scenarios/afd-step3.yaml --set model=glm-4.5 --skip-invalid --out out/glm-sweep\n"
        "  rlsim sweep S.yaml --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT --out /shared/sweep");
    return sub;
  }

  int run() override {
    const LoadOptions base = args_.load_options();
    const std::unique_ptr<ScenarioKind> kind = scenario_kind_of(args_.file, base);
    const SweepObjective objective =
        chosen_sweep_objective(objective_, kind->default_sweep_objective(), kind->sweep_columns());
    std::vector<SweepAxis> axes;
    for (const auto& param : params_) axes.push_back(parse_sweep_param(param));
    if (axes.empty()) axes = default_axes(*kind, base);
    const SweepGrid grid(axes);
    const SweepShard shard = shard_.empty() ? SweepShard{} : parse_sweep_shard(shard_);

    SweepManifest manifest;
    manifest.scenario = args_.file;
    manifest.kind = kind->name();
    manifest.unsets = args_.unsets;
    manifest.sets = args_.sets;
    manifest.seed = args_.seed;
    manifest.axes = grid.axes();
    manifest.points = grid.size();
    manifest.header = {"point"};
    for (const auto& axis : grid.axes()) manifest.header.push_back(axis.path);
    for (const auto& column : kind->sweep_columns()) manifest.header.push_back(column);
    manifest.header.emplace_back(kFitsMemoryColumn);
    manifest.header.emplace_back(kInvalidReasonColumn);

    // Every point of this shard is checked before anything is written or simulated; with
    // --skip-invalid, the points that fail become rows that say why.
    std::vector<long> mine;
    std::map<long, std::vector<std::string>> invalid;
    std::unordered_map<size_t, long> loading;  // hash of a resolved scenario → first point that gives it
    std::vector<PointSetups> setups;           // the points of each distinct setup (validated cases)
    long to_check = 0;
    for (long point = 0; point < grid.size(); ++point) to_check += shard.holds(point) ? 1 : 0;
    // On a terminal, "[k/N] checked point p: took …, ETA …": a large grid takes minutes to check.
    std::optional<Progress> checking(std::in_place, to_check, !quiet_);
    for (long point = 0; point < grid.size(); ++point) {
      if (!shard.holds(point)) continue;
      mine.push_back(point);
      const auto check_start = std::chrono::steady_clock::now();
      try {
        const std::string resolved =
            kind->load(args_.file, point_options(base, grid, point))->resolved_yaml();
        note_setup(setups, resolved, point);
        const auto [first, fresh] = loading.emplace(std::hash<std::string>{}(resolved), point);
        if (!fresh &&
            kind->load(args_.file, point_options(base, grid, first->second))->resolved_yaml() == resolved)
          refuse_same_scenario(grid, first->second, point);
      } catch (const InputError& error) {
        if (!skip_invalid_) throw;
        invalid[point] =
            invalid_row(*kind, grid, point, error.message(), dynamic_cast<const MemoryFitError*>(&error));
      }
      checking->finished(
          "checked point " + std::to_string(point),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - check_start).count());
    }
    checking.reset();  // ends the line before the points run

    // Every input file is read by now (each point was loaded above).
    manifest.inputs = inputs_fingerprint();
    manifest.rlsim_version = RLSIM_VERSION;
    const fs::path dir(out_);
    // The scenario in its own sweep folder under a name the sweep writes would be replaced.
    refuse_inputs_replaced(
        dir, {args_.file},
        {"sweep.csv", "sweep.json", "sweep-metrics.csv", "sweep.svg", "report.html", "pareto.csv", "points"},
        "--out");
    claim_sweep_dir(dir, manifest);
    const fs::path csv = dir / (shard.count == 1 ? std::string("sweep.csv")
                                                 : "sweep-shard-" + std::to_string(shard.index) + "-of-" +
                                                       std::to_string(shard.count) + ".csv");
    SweepTable done = read_sweep_csv(csv);
    if (!done.header.empty() && done.header != manifest.header) {
      throw InputError({csv.string(), 1, 1}, "written by a sweep with other columns; pick another --out");
    }
    check_rows_in_grid(done, manifest, csv);
    done.header = manifest.header;
    if (fs::exists(csv)) write_sweep_csv(csv, done);  // drops a row torn by an interruption
    std::vector<long> todo;
    size_t excluded = 0;  // recorded now as rows that did not load, not counted as done
    for (long point : mine) {
      if (done.rows.count(point)) continue;
      if (invalid.count(point)) {
        ++excluded;
        append_sweep_row(csv, manifest.header, invalid[point]);
        done.rows[point] = invalid[point];
        continue;
      }
      todo.push_back(point);
    }
    std::cout << "sweep: " << grid.size() << " points"
              << (shard.count > 1 ? " (shard " + shard_ + ": " + std::to_string(mine.size()) + ")" : "")
              << ", " << mine.size() - todo.size() - excluded << " already done, "
              << (excluded > 0 ? std::to_string(excluded) + " excluded (invalid), " : "") << "running "
              << todo.size() << " with " << jobs_ << " job" << (jobs_ > 1 ? "s" : "") << " -> "
              << csv.string() << "\n";

    size_t finished = 0;
    Progress progress(static_cast<long>(todo.size()), false);  // shown by the per-point lines
    const ChildOutcome failure = run_in_children(
        todo, jobs_,
        [&](long point) {
          // Default SimulationOptions: a point's SimGrid stays silent.
          return timed([&]() {
            try {
              const auto run = kind->load(args_.file, point_options(base, grid, point))->simulate({});
              write_point_metrics(dir, point, run->metrics());  // before its row: a row has its metrics
              return csv_line(run->sweep_row());
            } catch (const InputError& error) {
              if (!skip_invalid_) throw;
              return kRefusedWhileRunning + error.message();  // refused by the simulation itself
            }
          });
        },
        [&](const ChildOutcome& outcome) {
          if (!outcome.ok) return;
          const auto [seconds, text] = untimed(outcome.text);
          if (text.rfind(kRefusedWhileRunning, 0) == 0) {
            ++finished;
            append_sweep_row(
                csv, manifest.header,
                invalid_row(*kind, grid, outcome.job, text.substr(kRefusedWhileRunning.size()), false));
            if (!quiet_) {
              std::cout << "  [" << finished << "/" << todo.size() << "] point " << outcome.job
                        << ": refused while running, recorded as invalid (--skip-invalid)\n";
            }
            return;
          }
          std::vector<std::string> row{std::to_string(outcome.job)};
          for (const auto& value : grid.values(outcome.job)) row.push_back(value);
          for (auto& cell : csv_cells(text)) row.push_back(std::move(cell));
          row.emplace_back("1");  // it loaded, so it fits in memory
          row.emplace_back();
          append_sweep_row(csv, manifest.header, row);
          const std::string what = "point " + std::to_string(outcome.job);
          const std::string figures = progress.finished(what, seconds);
          ++finished;
          if (quiet_) return;
          std::cout << "  [" << finished << "/" << todo.size() << "] " << what << ": "
                    << join_assignments(grid.assignments(outcome.job)) << " (" << figures << ")\n";
        });
    if (!failure.ok) {
      const std::string where = "sweep point " + std::to_string(failure.job) + " (" +
                                join_assignments(grid.assignments(failure.job)) + ")";
      if (failure.input_error) throw InputError({args_.file, 0, 0}, where + ": " + failure.text);
      if (failure.output_error)
        throw OutputError(where + ": " + failure.text +
                          "; the points written before it are kept: rerun to resume");
      throw std::runtime_error(where + ": " + failure.text);
    }

    SweepTable table = read_sweep_csv(csv);
    write_sweep_csv(csv, table);
    report(dir, table, manifest, *kind, objective, shard.count == 1);
    std::cout << validated_near(setups, base, grid, *kind);
    return kExitOk;
  }

 private:
  /// What a point's child returns, before the reason, when its simulation refused it (--skip-invalid).
  inline static const std::string kRefusedWhileRunning = "\x01refused while running\x01";

  /// The grid the scenario declares; InputError when it declares none. The scenario's own values
  /// of the swept fields need not fit in memory: each point is checked with the grid's values.
  std::vector<SweepAxis> default_axes(const ScenarioKind& kind, LoadOptions base) const {
    base.check_memory = false;
    std::vector<SweepAxis> axes = kind.load(args_.file, base)->default_sweep_axes();
    if (axes.empty()) {
      throw InputError(
          {args_.file, 0, 0},
          "nothing to sweep: give --param path=v1,v2,… (or lo:hi:step), or declare a sweep: section "
          "in an AFD scenario");
    }
    return axes;
  }

  /// Two points that load to one resolved scenario: rows labelled with values never simulated.
  /// The error is at the first axis whose values differ between them.
  [[noreturn]] static void refuse_same_scenario(const SweepGrid& grid, long first, long second) {
    const auto a = grid.values(first), b = grid.values(second);
    size_t axis = 0;
    while (axis + 1 < a.size() && a[axis] == b[axis]) ++axis;
    throw InputError({"--param " + grid.axes()[axis].path, 1, 1},
                     "points " + std::to_string(first) + " (" + join_assignments(grid.assignments(first)) +
                         ") and " + std::to_string(second) + " (" +
                         join_assignments(grid.assignments(second)) +
                         ") are the same scenario: two axes name one field (a list item by index and by "
                         "name) or two values mean one (1 and 01, 8Gbps and 1GBps); sweep each field once, "
                         "each value once");
  }

  /// The row of a point that failed to load: its axis values, no metrics but meets_target 0,
  /// fits_memory 0 when memory was the reason, and the reason.
  static std::vector<std::string> invalid_row(const ScenarioKind& kind, const SweepGrid& grid, long point,
                                              const std::string& reason, bool over_memory) {
    std::vector<std::string> row{std::to_string(point)};
    for (const auto& value : grid.values(point)) row.push_back(value);
    for (const auto& column : kind.sweep_columns()) row.emplace_back(column == "meets_target" ? "0" : "");
    row.emplace_back(over_memory ? "0" : "");
    row.push_back(reason);
    return row;
  }

  /// The points that share one setup (kind, model, cards: tools/validation/case_nearness.h), and
  /// the first of them resolved.
  struct PointSetups {
    SetupFingerprint setup;
    std::string resolved_yaml;
    std::vector<long> points;
  };

  static void note_setup(std::vector<PointSetups>& setups, const std::string& resolved_yaml, long point) {
    const SetupFingerprint setup = fingerprint_of_resolved(resolved_yaml);
    const auto same =
        std::find_if(setups.begin(), setups.end(), [&](const PointSetups& s) { return s.setup == setup; });
    if (same != setups.end()) {
      same->points.push_back(point);
    } else {
      setups.push_back(PointSetups{setup, resolved_yaml, {point}});
    }
  }

  /// The validated cases nearest to each setup the sweep's points run, with the command that runs
  /// them: one block when every point shares the scenario's own setup, else one per setup, for the
  /// first point of each.
  std::string validated_near(const std::vector<PointSetups>& setups, const LoadOptions& base,
                             const SweepGrid& grid, const ScenarioKind& kind) const {
    if (setups.size() == 1) {
      try {
        const std::string resolved = kind.load(args_.file, base)->resolved_yaml();
        if (fingerprint_of_resolved(resolved) == setups.front().setup)
          return validated_near_from_record(resolved, args_.as_arguments());
      } catch (const InputError&) {
        // The scenario's own values do not load (a sweep of the points that do): name a point's.
      }
    }
    std::string text;
    for (const PointSetups& s : setups) {
      std::vector<std::string> sets = base.overrides;
      for (auto& assignment : grid.assignments(s.points.front())) sets.push_back(std::move(assignment));
      if (setups.size() > 1) {
        std::string cards;
        for (const auto& card : s.setup.cards) cards += (cards.empty() ? "" : ", ") + card;
        text += "points with model " + s.setup.model + " on " + cards + " (" +
                std::to_string(s.points.size()) + " of " + std::to_string(grid.size()) + "):\n";
      }
      text += validated_near_from_record(s.resolved_yaml, scenario_arguments(args_.file, base.unsets, sets));
    }
    return text;
  }

  static LoadOptions point_options(const LoadOptions& base, const SweepGrid& grid, long point) {
    LoadOptions options = base;
    for (auto& assignment : grid.assignments(point)) options.params.push_back(std::move(assignment));
    return options;
  }

  static std::string join_assignments(const std::vector<std::string>& assignments) {
    std::string out;
    for (const auto& a : assignments) out += (out.empty() ? "" : " ") + a;
    return out;
  }

  void report(const fs::path& dir, const SweepTable& table, const SweepManifest& manifest,
              const ScenarioKind& kind, const SweepObjective& objective, bool whole) const {
    SweepSummary summary =
        summarize_sweep(table, manifest, kind.sweep_report(table, manifest, objective), pareto_);
    summary.text += sweep_winner_line(table, manifest, objective) + outside_fitted_range_text(table, {dir});
    std::cout << summary.text;
    if (!whole) {
      std::cout << "shard done: join the shards with `rlsim sweep-merge " << dir.string() << "`\n";
      return;
    }
    write_sweep_outputs(dir, summary);
    write_sweep_metrics_csv(dir, table, 1 + manifest.axes.size(), {dir});
  }

  ScenarioArgs args_;
  std::vector<std::string> params_;
  int jobs_ = 1;
  std::string shard_;
  std::string out_ = "out/sweep";
  std::string objective_;
  bool pareto_ = false;
  bool skip_invalid_ = false;
  bool quiet_ = false;
};

}  // namespace
RLSIM_REGISTER_COMMAND(SweepCommand, "sweep", 40);
}  // namespace rlsim
