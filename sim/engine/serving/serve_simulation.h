// simulate_serve(): a serving benchmark on a fresh SimGrid engine. The deployment is the RL engine's
// own RolloutService (instances, replica schedulers, router, data plane, agents); each request is a
// one-call trajectory launched on it, so serving and rollout share one code path. Closed loop: the
// orchestrator launches `concurrency` requests, then one more each time one finishes. Open loop and
// trace replay: a client actor launches each request at its arrival time while the orchestrator
// collects the finished ones; arrivals that pile up past kMaxArrivalsInFlight (serve_spec.h) stop
// the run with an input error at the arrivals field. SimGrid allows one engine per process.
#pragma once

#include <string>
#include <vector>

#include "models/cost/tallied_cost_model.h"
#include "sim/engine/inference_instance.h"
#include "sim/engine/request.h"
#include "sim/engine/serving/serving_metrics.h"
#include "sim/platform/simulation_options.h"
#include "sim/platform/timeline.h"
#include "sim/scenario/serve_spec.h"

namespace rlsim {

struct ServeResult {
  Timeline timeline;
  std::vector<LlmRequest> requests;           ///< by request id (send order), as the replies came back
  std::vector<std::vector<LoadSample>> load;  ///< per instance
  double kv_capacity_tokens = 0.0;            ///< per instance
  ServingMetrics metrics;
  long simgrid_execs = 0;
  long simgrid_sleeps = 0;  ///< timed work (sim/engine/timed_work.h)
  long simgrid_messages = 0;
  long simgrid_actors = 0;
  /// The cost model that priced the ops and, per op class, what answered them (as RunMetrics).
  std::string cost_model;
  PriceTally prices;
};

/// `max_in_flight` is kMaxArrivalsInFlight but in tests of the overload stop.
ServeResult simulate_serve(const ServeScenario& scenario, const SimulationOptions& options = {},
                           int max_in_flight = kMaxArrivalsInFlight);

}  // namespace rlsim
