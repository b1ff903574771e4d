// What a sweep's line plot is drawn on, shared by the kinds that plot a figure against a swept
// field (rl_sweep_plot.h, serve_sweep_plot.h): the x axis (the first swept field whose values are
// all numbers, else the first field as categories), the points that ran in x order (a point that did
// not run — over memory, or refused under --skip-invalid — is a gap, never a value, and is counted),
// one series per combination of the other swept fields' values, and the best point of the sweep's
// text (the objective's first, tools/sweep/sweep_objective.h) to ring.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/report/svg_plot.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {

class SweepPlotFrame {
 public:
  SweepPlotFrame(const SweepTable& table, const SweepManifest& manifest);

  /// Whether there is anything to draw (an axis and a point that ran).
  bool empty() const { return manifest_.axes.empty() || (points_.empty() && not_run_ == 0); }
  const SweepAxis& x_axis() const { return manifest_.axes[x_index_]; }
  bool categorical() const { return categorical_; }
  /// The points that ran, by x.
  const std::vector<long>& points() const { return points_; }
  /// Points that did not run, for the subtitle.
  size_t not_run() const { return not_run_; }
  double x_of(long point) const;
  /// "max_batch=64, tp=2": every swept field's value at `point` (`but_x`: all but the x axis).
  std::string values_at(long point, bool but_x) const;
  /// One series per combination of the other fields' values, `column` of each point that has it,
  /// labelled by `label` and that combination; sorted by label. Values are multiplied by `scale`
  /// (1e3: a column of seconds drawn in milliseconds).
  std::vector<PlotSeries> series_of(const std::string& column, const std::string& label, bool right_axis,
                                    bool dashed, double scale = 1.0) const;
  /// Sets the x axis's label and categories on `plot` and counts the gaps in its subtitle.
  void frame(LinePlot& plot) const;
  /// The text's best point by `objective`, if any ran and qualified.
  std::optional<long> best(const SweepObjective& objective) const;

 private:
  const SweepTable& table_;
  const SweepManifest& manifest_;
  size_t x_index_ = 0;
  bool categorical_ = false;
  std::vector<long> points_;
  size_t not_run_ = 0;
};

}  // namespace rlsim
