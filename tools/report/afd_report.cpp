// Serialising an AFD run's metrics and timeline.
#include "tools/report/afd_report.h"

#include <cmath>
#include <map>

#include "tools/report/chrome_trace.h"
#include "tools/report/pricing_text.h"
#include "tools/report/text_format.h"
#include "tools/sweep/sweep_csv.h"

namespace rlsim {

nlohmann::json afd_metrics_json(const AfdScenario& s, const AfdMetrics& m) {
  const AfdDeploymentSpec& d = s.afd;
  nlohmann::json j;
  j["scenario"] = s.name;
  j["kind"] = "afd";
  j["seed"] = s.seed;
  j["model"] = s.model.name;
  j["deployment"] = {{"attention", {{"pool", d.attention_pool}, {"gpus", d.attention_gpus}}},
                     {"ffn", {{"pool", d.ffn_pool}, {"gpus", d.ffn_gpus}, {"tp", d.ffn_tp}}},
                     {"batch", d.batch},
                     {"micro_batches", d.micro_batches},
                     {"context", d.context},
                     {"precisions",
                      {{"weights", to_string(d.precisions.weights)},
                       {"kv_cache", to_string(d.precisions.kv)},
                       {"dispatch", to_string(d.precisions.dispatch)},
                       {"combine", to_string(d.precisions.combine)}}}};
  j["pricing"] = {{"cost_model", s.cost_model.name}, {"profile", profile_file(s.profile)}};
  j["tpot_s"] = m.tpot_s;
  j["batch_latency_s"] = m.batch_latency_s;
  j["target_tpot_s"] = d.target_tpot_s;
  j["meets_target"] = m.meets_target;
  j["throughput"] = {{"tokens_per_s", m.tokens_per_s}, {"tokens_per_s_per_gpu", m.tokens_per_s_per_gpu}};
  j["per_layer_s"] = {{"attention", m.attention_s_per_layer},
                      {"transfer", m.transfer_s_per_layer},
                      {"ffn_group_collectives", m.group_collective_s_per_layer},
                      {"ffn", m.ffn_s_per_layer},
                      {"attention_layer", m.attention_layer_s}};
  j["ffn_utilization"] = m.ffn_utilization;
  j["busy_fraction"] = {{"attention", m.attention_busy_fraction}, {"ffn", m.ffn_busy_fraction}};
  j["link_utilization"] = {{"max", m.max_link_utilization}, {"busiest_link", m.busiest_link}};
  j["memory_fraction"] = {{"attention", m.attention_memory_fraction}, {"ffn", m.ffn_memory_fraction}};
  j["cost"] = {{"usd_per_hour", m.usd_per_hour}, {"usd_per_1m_tokens", m.usd_per_1m_tokens}};
  const PingPongStages& a = m.analytic_stages;
  j["analytic"] = {{"attention_s", a.attention_s},
                   {"ffn_s", a.ffn_s},
                   {"transfer_s", a.transfer_s},
                   {"min_micro_batches", m.analytic.min_micro_batches},
                   {"pipeline_full", m.analytic.pipeline_full},
                   {"tpot_s", m.analytic.iteration_s}};
  j["simgrid_activities"] = m.activities;
  return j;
}

void write_afd_trace_json(std::ostream& out, const AfdScenario& scenario, const Timeline& timeline) {
  ChromeTraceStyle style;
  style.process_name = [](const std::string& group) { return group + " GPUs"; };
  style.index_key = "iteration";
  style.other_data = {{"scenario", scenario.name}, {"kind", "afd"}, {"seed", scenario.seed}};
  write_chrome_trace(out, timeline, style);
}

std::string afd_summary_table(const AfdScenario& s, const AfdMetrics& m) {
  const AfdDeploymentSpec& d = s.afd;
  std::string out = "rlsim: " + s.name + " (AFD, model " + s.model.name + ", " +
                    std::to_string(d.attention_gpus) + " attention GPUs on " + d.attention_pool + " + " +
                    std::to_string(d.ffn_gpus) + " FFN GPUs on " + d.ffn_pool + ")\n";
  auto add = [&](const char* label, const std::string& value) {
    out += "  " + padded(label, 31) + value + "\n";
  };
  add("batch / micro-batches", std::to_string(d.batch) + " sequences / " + std::to_string(d.micro_batches) +
                                   " (context " + std::to_string(d.context) + ")");
  add("TPOT (target)", formatted("%.2f ms", 1e3 * m.tpot_s) + " (" +
                           formatted("%.1f ms", 1e3 * d.target_tpot_s) + ", " +
                           (m.meets_target ? "met" : "missed") + ")");
  add("TPOT, analytic ping-pong", formatted("%.2f ms", 1e3 * m.analytic.iteration_s) +
                                      formatted(" (needs m >= %.2f)", m.analytic.min_micro_batches));
  add("throughput", formatted("%.0f tokens/s", m.tokens_per_s) + ", " +
                        formatted("%.0f tokens/s per GPU", m.tokens_per_s_per_gpu));
  add("per layer: attention", formatted("%.3f ms", 1e3 * m.attention_s_per_layer));
  add("per layer: transfer", formatted("%.3f ms", 1e3 * m.transfer_s_per_layer));
  if (d.ffn_tp > 1) {
    add("per layer: FFN group AG + RS", formatted("%.3f ms", 1e3 * m.group_collective_s_per_layer) +
                                            " (groups of " + std::to_string(d.ffn_tp) + " GPUs)");
  }
  add("per layer: FFN", formatted("%.3f ms", 1e3 * m.ffn_s_per_layer));
  add("FFN utilisation (FLOPs)", formatted("%.1f %%", 100.0 * m.ffn_utilization));
  add("busy: attention / FFN", formatted("%.1f %%", 100.0 * m.attention_busy_fraction) + " / " +
                                   formatted("%.1f %%", 100.0 * m.ffn_busy_fraction));
  add("busiest link", m.busiest_link.empty()
                          ? std::string("-")
                          : m.busiest_link + formatted(" (%.1f %%)", 100.0 * m.max_link_utilization));
  add("memory: attention / FFN GPU", formatted("%.0f %%", 100.0 * m.attention_memory_fraction) + " / " +
                                         formatted("%.0f %%", 100.0 * m.ffn_memory_fraction));
  add("cost", formatted("%.2f USD/h", m.usd_per_hour) + ", " +
                  formatted("%.3f USD per 1M tokens", m.usd_per_1m_tokens));
  add("precisions", "weights " + std::string(to_string(d.precisions.weights)) + ", KV cache " +
                        std::string(to_string(d.precisions.kv)) + ", dispatch " +
                        std::string(to_string(d.precisions.dispatch)) + ", combine " +
                        std::string(to_string(d.precisions.combine)));
  add("cost model", cost_model_text(s.cost_model.name, s.profile));
  // One note per card that multiplies the weights at a 16-bit peak (both sides may share a card).
  std::string previous;
  for (const std::string& pool : {d.attention_pool, d.ffn_pool}) {
    const std::string note = weight_only_note(s.cluster.pool(pool)->card, d.precisions.weights);
    if (!note.empty() && note != previous) add("", note);
    previous = note;
  }
  return out;
}

const std::vector<std::string>& afd_sweep_columns() {
  static const std::vector<std::string> columns{"batch",
                                                "micro_batches",
                                                "tpot_s",
                                                "target_tpot_s",
                                                "meets_target",
                                                "tokens_per_s",
                                                "tokens_per_s_per_gpu",
                                                "attention_s_per_layer",
                                                "transfer_s_per_layer",
                                                "ffn_collectives_s_per_layer",
                                                "ffn_s_per_layer",
                                                "ffn_utilization",
                                                "max_link_utilization",
                                                "attention_memory_fraction",
                                                "ffn_memory_fraction",
                                                "usd_per_1m_tokens",
                                                "analytic_tpot_s"};
  return columns;
}

std::vector<std::string> afd_sweep_values(const AfdScenario& s, const AfdMetrics& m) {
  const AfdDeploymentSpec& d = s.afd;
  return {std::to_string(d.batch),
          std::to_string(d.micro_batches),
          csv_number(m.tpot_s),
          csv_number(d.target_tpot_s),
          m.meets_target ? "1" : "0",
          csv_number(m.tokens_per_s),
          csv_number(m.tokens_per_s_per_gpu),
          csv_number(m.attention_s_per_layer),
          csv_number(m.transfer_s_per_layer),
          csv_number(m.group_collective_s_per_layer),
          csv_number(m.ffn_s_per_layer),
          csv_number(m.ffn_utilization),
          csv_number(m.max_link_utilization),
          csv_number(m.attention_memory_fraction),
          csv_number(m.ffn_memory_fraction),
          csv_number(m.usd_per_1m_tokens),
          csv_number(m.analytic.iteration_s)};
}

}  // namespace rlsim
