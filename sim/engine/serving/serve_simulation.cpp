// The clients of a serving benchmark against a RolloutService.
#include "sim/engine/serving/serve_simulation.h"

#include <algorithm>
#include <simgrid/s4u.hpp>

#include "sim/engine/rollout_service.h"
#include "sim/engine/serving/request_stream.h"
#include "sim/engine/simulation.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

void launch(RolloutService& service, const PlannedRequest& r) {
  Trajectory request;
  request.id = r.id;
  request.calls = {LlmCall{r.prompt_tokens, 0.0, r.output_tokens, 0.0}};
  service.launch(request, 0);
}

/// The orchestrator: sends the requests as the workload says and collects them all.
void run_clients(RlContext& context, const ServeWorkloadSpec& workload,
                 const std::vector<PlannedRequest>& plan, ServeResult& result) {
  RolloutService service(context, context.cost, context.rollout_instances, context.monitor);
  service.start();
  const size_t total = plan.size();
  size_t sent = 0;
  if (workload.arrivals == ArrivalMode::closed_loop) {
    for (; sent < std::min(total, static_cast<size_t>(workload.concurrency)); ++sent)
      launch(service, plan[sent]);
  } else {
    sent = total;
    sg4::Actor::create("clients", context.platform.dataplane, [&service, &plan]() {
      for (const PlannedRequest& r : plan) {
        sg4::this_actor::sleep_until(r.arrival_s);
        launch(service, r);
      }
    });
  }
  result.requests.resize(total);
  for (size_t done = 0; done < total; ++done) {
    TrajectoryResult finished = service.wait_finished();
    result.requests[static_cast<size_t>(finished.id)] = finished.calls.front();
    if (sent < total) launch(service, plan[sent++]);
  }
  for (const auto& instance : service.instances()) result.load.push_back(instance->load());
  result.kv_capacity_tokens = service.instances().front()->config().kv_capacity_tokens;
  service.stop();
}

}  // namespace

ServeResult simulate_serve(const ServeScenario& scenario, const SimulationOptions& options) {
  const Scenario& deployment = scenario.deployment;
  const ServeWorkloadSpec& workload = scenario.workload;
  ServeResult result;
  run_on_engine(
      deployment, options, false, result.timeline,
      [&](RlContext& context) {
        const std::vector<PlannedRequest> plan = plan_requests(workload, context.rng);
        run_clients(context, workload, plan, result);
      },
      [&](const EngineRun& run) {
        result.simgrid_execs = run.execs;
        result.simgrid_messages = run.messages;
      });
  result.timeline.yield_to_others(GpuState::wait(WaitCause::idle));
  result.metrics =
      serving_metrics(result.requests, workload.warmup(), {workload.slo_ttft_s, workload.slo_tpot_s},
                      result.load, deployment.rollout.max_batch, result.kv_capacity_tokens);
  return result;
}

}  // namespace rlsim
