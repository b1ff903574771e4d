// ScenarioKind: everything the CLI does with one kind of scenario file (its top-level `kind:`) —
// load and check it, simulate it, write and print what `rlsim run` writes and prints, and give a
// sweep its metric columns, one row per finished point, its default grid and its part of the sweep
// summary. `rlsim run`, `validate`, `sweep` and `sweep-merge` know nothing else about a kind, so a
// new kind is one file in tools/kinds/ registering itself with RLSIM_REGISTER_SCENARIO_KIND, plus
// its sim code. The kinds are in the one Registry template (models/registry/registry.h); the first
// in listing order is what a file without `kind:` is.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/registry/registry.h"
#include "sim/platform/simulation_options.h"
#include "sim/scenario/scenario_loader.h"
#include "tools/report/chrome_trace.h"
#include "tools/report/output_dir.h"
#include "tools/sweep/sweep_grid.h"
#include "tools/sweep/sweep_objective.h"
#include "tools/sweep/sweep_report.h"

namespace rlsim {

/// How a run's files are written: trace.json's layout, and lines report.html's summary ends with
/// (`rlsim run`: the validated cases nearest to the scenario, tools/validation/validation_record.h).
struct OutputOptions {
  TraceOptions trace;
  std::string summary_note;
  /// metrics.json's `advice.measured` and the summary's lines for it, in place of the rule of thumb
  /// (tools/advice/measured_advice.h); null and empty: none was measured.
  nlohmann::json measured_advice;
  std::string measured_advice_text;
};

/// One simulated scenario: what `rlsim run` writes and prints, and a sweep's row. It shares the
/// scenario with the CheckedScenario that made it, so either may go first.
class FinishedRun {
 public:
  virtual ~FinishedRun() = default;
  /// Writes the files `rlsim run` writes (metrics.json, trace.json, resolved.yaml, …) in order,
  /// as `options` asks.
  virtual void write_outputs(StagedOutput& output, const OutputOptions& options) const = 0;
  /// The summary `rlsim run` prints before the line naming the outputs.
  virtual std::string summary() const = 0;
  /// What metrics.json holds (a sweep keeps each point's).
  virtual nlohmann::json metrics() const = 0;
  /// The metric cells of a sweep row, in the kind's sweep_columns() order.
  virtual std::vector<std::string> sweep_row() const = 0;
};

/// A scenario loaded and checked (schema, catalogs, topology, kind-specific constraints): nothing
/// is written or simulated before this succeeds.
class CheckedScenario {
 public:
  virtual ~CheckedScenario() = default;
  /// The scenario as resolved.yaml records it: every field's value, defaults included. Two loads
  /// with the same text simulate the same thing.
  virtual const std::string& resolved_yaml() const = 0;
  /// What `rlsim validate` prints inside "FILE: ok (…)".
  virtual std::string description() const = 0;
  /// What `rlsim validate` prints after that line: per pool the memory each GPU holds, KV
  /// capacity and headroom (sim/scenario/memory_check.h). Lines indented, newline-terminated.
  virtual std::string memory_report() const { return ""; }
  /// The files the scenario is read from: the scenario itself, and any trace, trajectories or
  /// profile it names (an output must never replace one of them).
  virtual std::vector<std::string> input_files() const = 0;
  /// The grid the scenario declares for `rlsim sweep` without --param; empty when none.
  virtual std::vector<SweepAxis> default_sweep_axes() const { return {}; }
  /// Simulates on a fresh SimGrid engine (one per process).
  virtual std::unique_ptr<FinishedRun> simulate(const SimulationOptions& options) const = 0;
};

class ScenarioKind {
 public:
  explicit ScenarioKind(std::string name) : name_(std::move(name)) {}
  virtual ~ScenarioKind() = default;
  /// The registered name, as in `kind:` and a sweep's manifest.
  const std::string& name() const { return name_; }

  /// Loads `file` with the `--set` / `--seed` options and checks it; InputError when invalid.
  virtual std::unique_ptr<CheckedScenario> load(const std::string& file,
                                                const LoadOptions& options) const = 0;
  /// The metric columns of a sweep over scenarios of this kind.
  virtual const std::vector<std::string>& sweep_columns() const = 0;
  /// Whether its runs have LLM requests to trace (`rlsim run --trace-requests`).
  virtual bool has_requests() const { return true; }
  /// The column a sweep ranks its points by unless `--objective` names another.
  virtual std::string default_sweep_objective() const = 0;
  /// This kind's part of the summary of a finished sweep (`table` may hold only some points).
  /// `objective` picks the best point the summary names, which the plot rings.
  virtual SweepKindReport sweep_report(const SweepTable& table, const SweepManifest& manifest,
                                       const SweepObjective& objective) const = 0;

 private:
  std::string name_;
};

using ScenarioKindRegistry = Registry<ScenarioKind>;

/// The kind registered as `name`; InputError at `where` listing the kinds when there is none.
std::unique_ptr<ScenarioKind> make_scenario_kind(const std::string& name, const SourceLocation& where);
/// The kind of the scenario `file` after `--set` overrides (its `kind:`, or the first kind when it
/// has none); InputError at `kind:` listing the kinds when it names none.
std::unique_ptr<ScenarioKind> scenario_kind_of(const std::string& file, const LoadOptions& options);

}  // namespace rlsim

/// Registers scenario kind `Type` (constructed from its name) as `kind_name`; `listing_order` 1 is
/// the default kind of files without `kind:`.
#define RLSIM_REGISTER_SCENARIO_KIND(Type, kind_name, listing_order, summary)                              \
  static const bool rlsim_scenario_kind_registered_##Type = ::rlsim::ScenarioKindRegistry::instance().add( \
      {kind_name,                                                                                          \
       summary,                                                                                            \
       {},                                                                                                 \
       [](const ::rlsim::ParamValues&) -> std::unique_ptr<::rlsim::ScenarioKind> {                         \
         return std::make_unique<Type>(kind_name);                                                         \
       },                                                                                                  \
       listing_order})
