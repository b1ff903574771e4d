// The plot of a serving sweep: p99 TTFT (left, solid) and p99 TPOT (right, dashed; p50 both when no
// point measured enough requests for a p99) against the
// first numeric swept field (sweep_plot_frame.h), one series per combination of the other fields,
// the workload's SLO drawn on each axis, and the point the summary names best (by the objective,
// among the points within the SLO) ringed on its TTFT.
#pragma once

#include <optional>
#include <string>

#include "sim/scenario/serve_spec.h"
#include "tools/report/svg_plot.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {

/// `workload` gives the SLO (none drawn when it sets none); `title_setup` names the model and cards.
std::optional<LinePlot> serve_sweep_plot(const SweepTable& table, const SweepManifest& manifest,
                                         const ServeWorkloadSpec* workload, const std::string& title_setup,
                                         const SweepObjective& objective);

}  // namespace rlsim
