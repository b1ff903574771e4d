// What a serving sweep's table needs said beside it: the percentiles some points had too few
// requests for (printed "-"), the points whose closed-loop clients ran in lock-step, where TTFT
// is how the engine batches waves of identical clients (docs/design.md §11), and what each point's
// requests queued behind where queueing took a tenth of TTFT or more (tools/report/serve_diagnosis.h).
#pragma once

#include <string>

#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"

namespace rlsim {

/// One line per finding, each ending in a newline; empty when there is nothing to say.
std::string serve_sweep_findings(const SweepTable& table, const SweepManifest& manifest);

}  // namespace rlsim
