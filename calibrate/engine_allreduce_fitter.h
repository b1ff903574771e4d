// Tables of the inference engines' own all-reduces (vLLM's, SGLang's, TensorRT-LLM's), one per
// (engine, group size, launch mode), from measured message sizes, with the error of interpolating
// each size from its neighbours.
#pragma once

#include <vector>

#include "calibrate/measurement.h"
#include "models/cost/profile.h"

namespace rlsim {

/// One table per group in `points`, sorted by (engine, gpus, eager before graph). A size measured
/// more than once keeps the median of its times. Each size between the smallest and the largest is
/// withheld in turn and priced by the line between its neighbours to score the table.
std::vector<EngineAllReduce> engine_allreduce_tables(const std::vector<EngineAllReduceMeasurement>& points);

}  // namespace rlsim
