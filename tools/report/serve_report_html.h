// A serving run's report.html: the summary as printed (with the validated cases nearest to it), the
// distributions of TTFT and TPOT over the steady-state requests (the share of requests within each latency,
// one plot each, the SLO named when set), and the inputs (resolved.yaml). Self-contained: inline SVG, no
// script.
#pragma once

#include <string>

#include "sim/engine/serving/serve_simulation.h"
#include "sim/scenario/serve_spec.h"

namespace rlsim {

/// `summary` is what `rlsim run` prints.
std::string serve_report_html(const ServeScenario& scenario, const ServeResult& result,
                              const std::string& summary, const std::string& resolved_yaml);

}  // namespace rlsim
