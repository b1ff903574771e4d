// Serialising a serving run.
#include "tools/report/serve_report.h"

#include <cmath>

#include "sim/engine/scheduling/replica_scheduler.h"
#include "tools/report/chrome_trace.h"
#include "tools/report/pricing_text.h"
#include "tools/report/request_slices.h"
#include "tools/report/serve_diagnosis.h"
#include "tools/report/text_format.h"
#include "tools/sweep/sweep_csv.h"

namespace rlsim {
namespace {

constexpr double kMs = 1e3;

struct Quantile {
  const char* name;
  double q;
  double Percentiles::*value;
};
const Quantile kQuantiles[] = {
    {"p50", 0.50, &Percentiles::p50}, {"p90", 0.90, &Percentiles::p90}, {"p99", 0.99, &Percentiles::p99}};

/// Seconds, as every time in metrics.json (the summary prints milliseconds).
nlohmann::json latency_json(const Percentiles& p, long samples) {
  nlohmann::json j{{"samples", samples}, {"mean", samples > 0 ? nlohmann::json(p.mean) : nlohmann::json()}};
  for (const Quantile& q : kQuantiles)
    j[q.name] = enough_for_quantile(q.q, samples) ? nlohmann::json(p.*q.value) : nlohmann::json();
  return j;
}

int gpus(const Scenario& s) { return s.cluster.pool(s.rollout.pool)->gpus(); }

/// Every GPU of the scenario (the deployment's and, for AFD, its FFN side), USD per hour.
double usd_per_hour(const Scenario& s) {
  double usd = 0.0;
  for (const auto& pool : s.cluster.pools) usd += pool.gpus() * pool.card.usd_per_hour;
  return usd;
}

/// Every GPU of the scenario, the FFN side of an AFD deployment included (what per-GPU figures divide by).
int all_gpus(const Scenario& s) {
  int n = 0;
  for (const auto& pool : s.cluster.pools) n += pool.gpus();
  return n;
}

double usd_per_1m_output_tokens(const ServeScenario& scenario, const ServingMetrics& m) {
  return m.output_tokens_per_s > 0.0
             ? usd_per_hour(scenario.deployment) / 3600.0 / m.output_tokens_per_s * 1e6
             : 0.0;
}

std::string arrivals_text(const ServeWorkloadSpec& w) {
  switch (w.arrivals) {
    case ArrivalMode::closed_loop:
      // As many clients as requests or more send them all at once: no client ever sends again.
      return w.sends_in_loop() ? "closed loop of " + std::to_string(w.concurrency) + " clients"
                               : "offline batch (concurrency " + std::to_string(w.concurrency) +
                                     " covers every request: all sent at once)";
    case ArrivalMode::poisson: return "Poisson arrivals at " + formatted("%g", w.rate_per_s) + " requests/s";
    case ArrivalMode::trace: return "trace " + w.trace_file;
  }
  return "";
}

/// The serve block's batching with every parameter of its scheduler, defaults included: as text,
/// "chunked_prefill (token_budget 8192)", and for metrics.json, {"name": …, "token_budget": 8192}.
std::string scheduler_text(const PluginSpec& scheduler) {
  const auto* entry = ReplicaSchedulerRegistry::instance().find(scheduler.name);
  if (!entry || entry->params.empty()) return scheduler.name;
  std::string params;
  for (const ParamSpec& spec : entry->params)
    params += (params.empty() ? "" : ", ") + spec.key + " " + scheduler.params.text_of(spec);
  return scheduler.name + " (" + params + ")";
}

nlohmann::json scheduler_json(const PluginSpec& scheduler) {
  nlohmann::json j{{"name", scheduler.name}};
  const auto* entry = ReplicaSchedulerRegistry::instance().find(scheduler.name);
  if (!entry) return j;
  const ParamValues values = scheduler.params.with_defaults(entry->params);
  for (const ParamSpec& spec : entry->params) {
    switch (spec.type) {
      case ParamType::integer: j[spec.key] = values.integer(spec.key); break;
      case ParamType::number:
      case ParamType::quantity: j[spec.key] = values.number(spec.key); break;
      case ParamType::flag: j[spec.key] = values.flag(spec.key); break;
      case ParamType::choice: j[spec.key] = values.text(spec.key); break;
    }
  }
  return j;
}

}  // namespace

nlohmann::json serve_metrics_json(const ServeScenario& scenario, const ServeResult& result) {
  const Scenario& s = scenario.deployment;
  const ServeWorkloadSpec& w = scenario.workload;
  const ServingMetrics& m = result.metrics;
  nlohmann::json j;
  j["scenario"] = s.name;
  j["kind"] = "serve";
  j["seed"] = s.seed;
  j["deployment"] = {{"model", s.model.name},
                     {"pool", s.rollout.pool},
                     {"gpus", gpus(s)},
                     {"instances", result.load.size()},
                     {"tp", s.rollout.tp},
                     {"pp", s.rollout.pp},
                     {"weights", to_string(s.rollout.weights)},
                     {"kv_cache", to_string(s.rollout.kv_cache)},
                     {"engine", s.rollout.engine},
                     {"scheduler", scheduler_json(s.rollout.scheduler)},
                     {"max_batch", s.rollout.max_batch},
                     {"kv_capacity_tokens_per_instance", result.kv_capacity_tokens}};
  if (s.rollout.afd) {
    // AFD: the experts run on a pool of their own, which the per-GPU figures count too.
    j["deployment"]["ffn_pool"] = s.rollout.afd->ffn_pool;
    j["deployment"]["ffn_gpus"] = s.cluster.pool(s.rollout.afd->ffn_pool)->gpus();
  }
  nlohmann::json workload{{"arrivals", arrivals_text(w)}, {"requests", w.requests}};
  if (w.arrivals == ArrivalMode::closed_loop) workload["concurrency"] = w.concurrency;
  if (w.arrivals == ArrivalMode::poisson) workload["rate_per_s"] = w.rate_per_s;
  if (w.arrivals == ArrivalMode::trace) workload["trace"] = w.trace_file;
  workload["api_server_s"] = w.api_server_s;
  if (w.prompt_pool > 0) workload["prompt_pool"] = w.prompt_pool;
  j["workload"] = workload;
  nlohmann::json serving{{"requests", m.requests},
                         {"warmup_excluded", m.warmup_excluded},
                         {"measured", m.measured},
                         {"window_s", m.window_s},
                         {"queue_s", latency_json(m.queue_s, m.measured)},
                         {"ttft_s", latency_json(m.ttft_s, m.measured)},
                         {"tpot_s", latency_json(m.tpot_s, m.tpot_samples)},
                         {"e2e_s", latency_json(m.e2e_s, m.measured)},
                         {"requests_per_s", m.requests_per_s},
                         {"output_tokens_per_s", m.output_tokens_per_s},
                         {"output_tokens_per_s_per_gpu", m.output_tokens_per_s / all_gpus(s)},
                         {"usd_per_1m_output_tokens", usd_per_1m_output_tokens(scenario, m)},
                         {"batch_occupancy", m.batch_occupancy},
                         {"sent_together_fraction", m.sent_together_fraction},
                         {"prefix_cached_fraction", m.prefix_cached_fraction},
                         {"kv_use", {{"mean", m.kv_use_mean}, {"max", m.kv_use_max}}},
                         {"preempted_requests", m.preempted}};
  const QueueCause cause = queue_cause(queue_figures(m));
  serving["queued_behind"] = nullptr;  // queueing under a tenth of TTFT: no cause to name
  if (cause != QueueCause::short_queue) serving["queued_behind"] = queue_cause_name(cause);
  if (w.slo_ttft_s || w.slo_tpot_s) {
    nlohmann::json slo = nlohmann::json::object();
    if (w.slo_ttft_s) slo["ttft_s"] = *w.slo_ttft_s;
    if (w.slo_tpot_s) slo["tpot_s"] = *w.slo_tpot_s;
    serving["goodput"] = {
        {"slo", slo}, {"fraction", m.goodput_fraction}, {"requests_per_s", m.goodput_requests_per_s}};
  }
  j["serving"] = serving;
  j["pricing"] = pricing_json(s, result.cost_model, result.prices);
  j["engine"] = {
      {"simgrid_activities", result.simgrid_execs + result.simgrid_sleeps + result.simgrid_messages},
      {"simgrid_execs", result.simgrid_execs},
      {"simgrid_sleeps", result.simgrid_sleeps},
      {"simgrid_messages", result.simgrid_messages},
      {"simgrid_actors", result.simgrid_actors}};
  return j;
}

std::string serve_requests_csv(const ServeResult& result) {
  std::string out =
      "request,instance,prompt_tokens,output_tokens,submit_s,prefill_start_s,first_token_s,finish_s,"
      "preemptions,api_server_s\n";
  for (const LlmRequest& r : result.requests) {
    out += csv_line({std::to_string(r.trajectory), std::to_string(r.instance), csv_number(r.new_tokens),
                     csv_number(r.output_tokens), csv_number(r.submit_s), csv_number(r.prefill_start_s),
                     csv_number(r.first_token_s), csv_number(r.finish_s), std::to_string(r.preemptions),
                     csv_number(r.api_server_s)});
    out += '\n';
  }
  return out;
}

void write_serve_trace_json(std::ostream& out, const ServeScenario& scenario, const ServeResult& result,
                            const TraceOptions& options) {
  const Scenario& s = scenario.deployment;
  ChromeTraceStyle style;
  style.collapse_track_sets = !options.gpu_tracks;
  style.process_name = [](const std::string& group) { return "pool " + group; };
  style.index_key = "step";
  style.state_arg = true;
  style.other_data = {{"scenario", s.name}, {"seed", s.seed}, {"kind", "serve"}};
  style.extra_events = [&](TraceWriter& writer) {
    write_instance_load_counters(writer, result.load);
    if (options.requests) write_request_slices(writer, result.timeline.calls(), RequestNaming::request);
  };
  write_chrome_trace(out, result.timeline, style);
}

std::string serve_summary(const ServeScenario& scenario, const ServeResult& result) {
  const Scenario& s = scenario.deployment;
  const ServeWorkloadSpec& w = scenario.workload;
  const ServingMetrics& m = result.metrics;
  const PoolSpec& pool = *s.cluster.pool(s.rollout.pool);
  std::string out =
      "rlsim: " + s.name + " (serve, seed " + std::to_string(s.seed) + ", model " + s.model.name + ")\n";
  out += "  deployment: " + std::to_string(pool.gpus()) + " x " + pool.card.name + ", " +
         std::to_string(result.load.size()) + " instance(s) of " + s.rollout.parallelism() + ", weights " +
         std::string(to_string(s.rollout.weights)) + ", KV cache " +
         std::string(to_string(s.rollout.kv_cache)) + ", max_batch " + std::to_string(s.rollout.max_batch) +
         "\n";
  out += "  engine: " + s.rollout.engine + ", batching " + scheduler_text(s.rollout.scheduler) + "\n";
  out += "  cost model: " + pricing_text(s, result.cost_model, result.prices) + "\n";
  if (const std::string note = weight_only_note(pool.card, s.rollout.weights); !note.empty())
    out += "    " + note + "\n";
  out += "  workload: " + arrivals_text(w) + ", " + std::to_string(m.requests) + " requests" +
         (w.prompt_pool > 0 ? ", prompts drawn from a pool of " + std::to_string(w.prompt_pool)
                            : std::string()) +
         (w.api_server_s > 0.0 ? ", each through the API server (+" + formatted("%g", kMs * w.api_server_s) +
                                     " ms on TTFT and E2E)"
                               : std::string(", in-process (no API server)")) +
         "\n";
  out += "  steady state: " + std::to_string(m.measured) + " requests (" + std::to_string(m.warmup_excluded) +
         " warm-up excluded) over " + formatted("%.3f s", m.window_s) + "\n";
  out += "  " + padded("latency (ms)", 14) + padded("mean", 10) + padded("p50", 10) + padded("p90", 10) +
         "p99\n";
  auto row = [&](const char* name, const Percentiles& p, long samples) {
    out += "  " + padded(name, 14) + padded(samples > 0 ? fixed(kMs * p.mean, 2) : "-", 10);
    for (const Quantile& q : kQuantiles) {
      const std::string cell = enough_for_quantile(q.q, samples) ? fixed(kMs * (p.*q.value), 2) : "-";
      out += q.q < 0.99 ? padded(cell, 10) : cell;
    }
    out += "\n";
  };
  row("queue", m.queue_s, m.measured);
  row("TTFT", m.ttft_s, m.measured);
  row("TPOT", m.tpot_s, m.tpot_samples);
  row("E2E", m.e2e_s, m.measured);
  out += ttft_breakdown_lines(m, w.api_server_s, wider_than_fp8(s.rollout.kv_cache));
  out += "  throughput: " + formatted("%.3f requests/s", m.requests_per_s) + ", " +
         formatted("%.1f output tokens/s", m.output_tokens_per_s) + ", " +
         formatted("%.2f USD per 1M output tokens", usd_per_1m_output_tokens(scenario, m)) + "\n";
  if (w.slo_ttft_s || w.slo_tpot_s) {
    std::string slo;
    if (w.slo_ttft_s) slo += formatted("TTFT <= %g ms", kMs * *w.slo_ttft_s);
    if (w.slo_tpot_s) slo += (slo.empty() ? "" : ", ") + formatted("TPOT <= %g ms", kMs * *w.slo_tpot_s);
    out += "  goodput (" + slo + "): " + formatted("%.1f %% of requests", 100.0 * m.goodput_fraction) + ", " +
           formatted("%.3f requests/s", m.goodput_requests_per_s) + "\n";
  }
  out += "  decode batch occupancy: " + formatted("%.1f %% of max_batch", 100.0 * m.batch_occupancy) +
         "; KV use mean " + formatted("%.1f %%", 100.0 * m.kv_use_mean) + ", max " +
         formatted("%.1f %%", 100.0 * m.kv_use_max) + "\n";
  if (w.prompt_pool > 0 || w.shared_prefix_tokens > 0) {
    out += "  prefix cache: " + formatted("%.0f %%", 100.0 * m.prefix_cached_fraction) +
           " of the measured requests found " + (w.prompt_pool > 0 ? "their prompt" : "their shared start") +
           " cached and prefilled only the rest\n";
  }
  // A loop whose clients send in waves.
  if (w.sends_in_loop() && m.sent_together_fraction >= kLockStepNoteFraction) {
    out += "  sent together: " + formatted("%.0f %%", 100.0 * m.sent_together_fraction) +
           " of the measured requests left within 1 ms of another: clients whose requests finished "
           "together send again together\n    and their prompts reach the engine as one wave, so this TTFT "
           "is the lock-step bound; real clients drift apart and queue less";
    // Fixed lengths keep the waves: a little spread shows the other bound (docs/design.md §11).
    if (w.output_tokens.kind == Distribution::Kind::fixed) {
      const long tokens = std::lround(w.output_tokens.value);
      out += "\n    the other bound, clients kept apart: --set 'workload.output_tokens={uniform: {min: " +
             std::to_string(tokens) + ", max: " + std::to_string(tokens + std::max(1L, tokens / 20)) + "}}'";
    }
    out += "\n";
  }
  return out;
}

const std::vector<std::string>& serve_sweep_columns() {
  static const std::vector<std::string> columns{"ttft_p50_s",
                                                "ttft_p99_s",
                                                "tpot_p50_s",
                                                "tpot_p99_s",
                                                "e2e_p50_s",
                                                "requests_per_s",
                                                "output_tokens_per_s",
                                                "goodput_fraction",
                                                "batch_occupancy",
                                                "sent_together_fraction",
                                                "prefix_cached_fraction",
                                                "usd_per_1m_tokens",
                                                "queue_share",
                                                "kv_use_max",
                                                "preempted_requests",
                                                "meets_target"};
  return columns;
}

bool meets_slo(const ServeWorkloadSpec& workload, const ServingMetrics& m) {
  return (!workload.slo_ttft_s || m.ttft_s.p99 <= *workload.slo_ttft_s) &&
         (!workload.slo_tpot_s || m.tpot_s.p99 <= *workload.slo_tpot_s);
}

std::vector<std::string> serve_sweep_values(const ServeScenario& scenario, const ServeResult& result) {
  const ServingMetrics& m = result.metrics;
  auto quantile = [](const Percentiles& p, double Percentiles::*value, double q, long samples) {
    return enough_for_quantile(q, samples) ? csv_number(p.*value) : std::string();
  };
  return {quantile(m.ttft_s, &Percentiles::p50, 0.50, m.measured),
          quantile(m.ttft_s, &Percentiles::p99, 0.99, m.measured),
          quantile(m.tpot_s, &Percentiles::p50, 0.50, m.tpot_samples),
          quantile(m.tpot_s, &Percentiles::p99, 0.99, m.tpot_samples),
          quantile(m.e2e_s, &Percentiles::p50, 0.50, m.measured),
          csv_number(m.requests_per_s),
          csv_number(m.output_tokens_per_s),
          csv_number(m.goodput_fraction),
          csv_number(m.batch_occupancy),
          scenario.workload.sends_in_loop() ? csv_number(m.sent_together_fraction) : std::string(),
          csv_number(m.prefix_cached_fraction),
          csv_number(usd_per_1m_output_tokens(scenario, m)),
          csv_number(queue_figures(m).queue_share),
          csv_number(m.kv_use_max),
          csv_number(m.preempted),
          meets_slo(scenario.workload, m) ? "1" : "0"};
}

}  // namespace rlsim
