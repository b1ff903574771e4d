// The validation manifest (scenarios/validation/cases.yaml): one entry per published measurement
// rlsim is held against — the scenario that mirrors its setup, the metrics.json path compared, the
// published figure with its unit, source, setup and every assumption made, the relative tolerance,
// whether the figure set a model term (calibrate) or is held out (judge), and optionally the
// scenario kind a case needs (skipped while that kind is not registered) or a known gap (a case
// not yet within tolerance, reported loudly but failing only when its error grows past the recorded
// gap_error), and the error of its first run. A case may instead hold one
// op (`op: {hardware: H800, gemm: {m, n, k, groups, dtype}}`) priced by the datasheet roofline on
// that catalog card, for kernel-level measurements; its metrics are `seconds` and `tflops`.
// Errors: FILE:LINE:COL.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/input_error.h"
#include "models/ops/op.h"

namespace rlsim {

/// A kernel-level case: one op on one catalog card.
struct OpCase {
  std::string hardware;
  Op op;
};

struct ValidationCase {
  std::string name;
  std::string scenario;           ///< path as resolved against the manifest's folder; empty for an op case
  std::optional<OpCase> op;       ///< the op priced instead of a scenario simulated
  std::vector<std::string> sets;  ///< `set:` overrides as "a.b=value", like --set
  std::string metric;             ///< dotted path into the run's metrics.json
  double published = 0;           ///< the measured figure, in `unit`
  std::string unit;
  std::string source;
  std::string setup;
  std::vector<std::string> assumptions;
  double tolerance = 0;       ///< largest accepted |simulated - published| / published
  std::string role;           ///< "calibrate" (set a model term) or "judge" (held out)
  std::string requires_kind;  ///< scenario kind the case needs; empty when any build runs it
  std::string known_gap;      ///< why the case is not yet within tolerance; empty when it should be
  /// The relative error when the known gap was recorded (`gap_error`, required with `known_gap`): a
  /// gap that grows by more than kGapGrowth past it fails the case.
  std::optional<double> gap_error;
  /// The relative error of the case's first run, kept beside today's (`first_run_error`).
  std::optional<double> first_run_error;
  SourceLocation where;  ///< of the case's entry, for errors found after simulating
  SourceLocation metric_where;
};

/// How far |error| may grow past a known gap's recorded |gap_error| before the case fails.
constexpr double kGapGrowth = 0.02;

struct ValidationManifest {
  std::string file;
  std::vector<ValidationCase> cases;
};

/// Reads and checks a manifest: required fields, unique names, scenario files that exist.
ValidationManifest read_validation_manifest(const std::string& path);
/// Reads manifest text already in memory; `file` names it in messages and anchors scenario paths.
ValidationManifest read_validation_manifest_text(const std::string& text, const std::string& file);

}  // namespace rlsim
