// The clients of a serving benchmark against a RolloutService.
#include "sim/engine/serving/serve_simulation.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <simgrid/s4u.hpp>
#include <string>

#include "models/input_error.h"
#include "sim/engine/rollout_service.h"
#include "sim/engine/serving/request_stream.h"
#include "sim/engine/simulation.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

/// Sends one planned request as a one-call trajectory through the workload's API server.
void launch(RolloutService& service, const PlannedRequest& r, const ServeWorkloadSpec& workload) {
  Trajectory request;
  request.id = r.id;
  request.calls = {LlmCall{r.prompt_tokens, 0.0, r.output_tokens, 0.0, r.shared_prefix_tokens, r.prefix_group,
                           workload.api_server_s}};
  service.launch(request, 0);
}

/// Where open-loop or replayed arrivals piled up past the requests in flight a run may hold.
struct Overload {
  double at_s = 0.0;
  size_t sent = 0;
  size_t finished = 0;
};

/// The orchestrator: sends the requests as the workload says and collects them all. Arrivals
/// that would take the requests in flight past `max_in_flight` are not sent: the run ends
/// when those sent have finished, and `overload` says when that happened.
void run_clients(RlContext& context, const ServeWorkloadSpec& workload,
                 const std::vector<PlannedRequest>& plan, int max_in_flight, ServeResult& result,
                 std::optional<Overload>& overload) {
  RolloutService service(context, context.cost, context.rollout_instances, context.monitor);
  service.start();
  const size_t total = plan.size();
  size_t sent = 0, done = 0;
  bool sending = true;  // the open-loop clients actor has requests left to send
  if (workload.arrivals == ArrivalMode::closed_loop) {
    for (; sent < std::min(total, static_cast<size_t>(workload.concurrency)); ++sent)
      launch(service, plan[sent], workload);
    sending = false;
  } else {
    sg4::Actor::create("clients", context.platform.dataplane, [&]() {
      for (const PlannedRequest& r : plan) {
        sg4::this_actor::sleep_until(r.arrival_s);
        if (sent - done >= static_cast<size_t>(max_in_flight)) {
          overload = Overload{sg4::Engine::get_clock(), sent, done};
          break;
        }
        launch(service, r, workload);
        ++sent;
      }
      sending = false;
    });
  }
  result.requests.resize(total);
  // Actors run one at a time: `sent` and `sending` change only while this one waits.
  while (done < total && (sending || done < sent)) {
    TrajectoryResult finished = service.wait_finished();
    result.requests[static_cast<size_t>(finished.id)] = finished.calls.front();
    ++done;
    if (workload.arrivals == ArrivalMode::closed_loop && sent < total)
      launch(service, plan[sent++], workload);
  }
  for (const auto& instance : service.instances()) result.load.push_back(instance->load());
  result.kv_capacity_tokens = service.instances().front()->config().kv_capacity_tokens;
  service.stop();
}

std::string three_digits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

[[noreturn]] void refuse_overload(const ServeWorkloadSpec& workload, const Overload& o, size_t total,
                                  int max_in_flight) {
  const std::string arrivals = workload.arrivals == ArrivalMode::poisson ? "rate" : "trace";
  const std::string rates = o.at_s > 0.0
                                ? ": about " + three_digits(static_cast<double>(o.sent) / o.at_s) +
                                      " arrived per second and " +
                                      three_digits(static_cast<double>(o.finished) / o.at_s) + " were served"
                                : std::string();
  throw InputError(
      workload.arrivals_where,
      "the arrivals outpace the deployment: at " + three_digits(o.at_s) + " s, " +
          std::to_string(max_in_flight) + " requests were in flight (" + std::to_string(o.sent) + " of " +
          std::to_string(total) + " sent, " + std::to_string(o.finished) + " finished" + rates +
          "). Past that, latency is only the queue and each arrival costs the simulator in "
          "proportion to the transfers in flight, so rlsim stops: lower the " +
          arrivals + ", send fewer requests, or serve with more instances (an offline batch of requests " +
          "queued at once is a closed loop: concurrency equal to requests)");
}

}  // namespace

ServeResult simulate_serve(const ServeScenario& scenario, const SimulationOptions& options,
                           int max_in_flight) {
  const Scenario& deployment = scenario.deployment;
  const ServeWorkloadSpec& workload = scenario.workload;
  ServeResult result;
  std::vector<PlannedRequest> plan;
  std::optional<Overload> overload;
  run_on_engine(
      deployment, options, false, result.timeline,
      [&](RlContext& context) {
        plan = plan_requests(workload, context.rng);
        run_clients(context, workload, plan, max_in_flight, result, overload);
      },
      [&](const EngineRun& run) {
        result.simgrid_execs = run.execs;
        result.simgrid_sleeps = run.sleeps;
        result.simgrid_messages = run.messages;
        result.simgrid_actors = run.actors;
        result.cost_model = deployment.cost_model.name;
        result.prices = run.prices;
      });
  if (overload) refuse_overload(workload, *overload, plan.size(), max_in_flight);
  result.timeline.yield_to_others(GpuState::wait(WaitCause::idle));
  result.metrics =
      serving_metrics(result.requests, workload.warmup(), {workload.slo_ttft_s, workload.slo_tpot_s},
                      result.load, deployment.rollout.max_batch, result.kv_capacity_tokens);
  return result;
}

}  // namespace rlsim
