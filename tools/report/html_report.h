// report.html: one self-contained page (inline SVG and CSS, no script, no network) per run,
// comparison and sweep. A run's page has its summary, a Gantt timeline per pool (GPU states
// coloured by phase and wait cause, step boundaries marked), the bubble by cause, utilisation per
// pool, TTFT and TPOT histograms, cost, advice and the resolved inputs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/engine/metrics.h"
#include "sim/platform/timeline.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// A page section: its heading and its HTML body.
using HtmlSection = std::pair<std::string, std::string>;

/// A whole page: `title`, then the sections in order.
std::string html_page(const std::string& title, const std::vector<HtmlSection>& sections);
/// `text` as a preformatted block (escaped). A line of prose ("name: text" with no run of two spaces
/// after its indentation, so neither a table's row nor its header) wraps at the page's width
/// instead of scrolling it sideways.
std::string html_pre(const std::string& text);

/// The GPU tracks' states over time, one row per GPU grouped by pool, as SVG.
std::string timeline_svg(const Timeline& timeline);

/// A run's page. `summary` is what `rlsim run` prints; `resolved_yaml` the inputs; `measured_advice`
/// (the advice by simulation's lines, tools/advice/measured_advice.h) replaces the rule of thumb in
/// the Advice section when given, so the page never advises what the simulations did not back.
std::string run_report_html(const Scenario& scenario, const RunMetrics& metrics, const Timeline& timeline,
                            const std::string& summary, const std::string& resolved_yaml,
                            const std::string& measured_advice = "");

}  // namespace rlsim
