// Serialising a run's metrics and timeline.
#include "tools/report/run_report.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "models/cost/roofline.h"
#include "models/timing/attention_kernels.h"
#include "sim/scenario/memory_check.h"
#include "tools/report/chrome_trace.h"
#include "tools/report/pricing_text.h"
#include "tools/report/request_slices.h"
#include "tools/report/text_format.h"
#include "tools/report/training_mfu.h"
#include "tools/report/verl_timing.h"

namespace rlsim {
namespace {

/// The steps a fault touched that the steady-state figures leave out (warm-up, drain).
std::vector<int> fault_steps_outside_steady(const RunMetrics& m) {
  std::vector<int> outside;
  for (int step : m.faults.steps_touched) {
    if (!m.steady.contains_step(static_cast<size_t>(step))) outside.push_back(step);
  }
  return outside;
}

/// "touched steps 0w, 2": and, when the steady state leaves some out, where their cost shows.
std::string fault_steps_text(const RunMetrics& m) {
  if (m.faults.steps_touched.empty()) return "no step touched";
  std::string steps;
  for (int step : m.faults.steps_touched) {
    const bool warmup = step < m.steady.warmup_steps;
    const bool drain = !warmup && !m.steady.contains_step(static_cast<size_t>(step));
    steps += (steps.empty() ? "" : ", ") + std::to_string(step) + (warmup ? "w" : drain ? "d" : "");
  }
  const size_t outside = fault_steps_outside_steady(m).size();
  return "touched step" + std::string(m.faults.steps_touched.size() > 1 ? "s " : " ") + steps +
         (outside == 0 ? std::string()
                       : " (" + std::string(outside == m.faults.steps_touched.size() ? "all" : "some") +
                             " outside the steady state: its figures leave that cost out, 'step time, all "
                             "steps' keeps it)");
}

nlohmann::json percentiles_json(const Percentiles& p) {
  return {{"p50", p.p50}, {"p99", p.p99}, {"mean", p.mean}, {"max", p.max}, {"samples", p.samples}};
}

/// Per-GPU memory of the rollout instances and the training layout (sim/scenario/memory_check.h).
nlohmann::json memory_json(const Scenario& s) {
  const InferenceMemory r = rollout_memory(s);
  const TrainingMemory t =
      training_memory(s.model, s.cluster.pool(s.training.pool)->card, training_layout(s));
  const double context = typical_context_tokens(s.workload);
  return {{"rollout",
           {{"weight_bytes_per_gpu", r.weight_bytes},
            {"reserve_bytes_per_gpu", r.reserve_bytes},
            {"kv_bytes_per_gpu", r.kv_free_bytes},
            {"kv_capacity_tokens", r.kv_capacity_tokens},
            {"kv_capacity_sequences", r.sequences(context)},
            {"typical_context_tokens", context}}},
          {"training",
           {{"dp", training_layout(s).dp},
            {"sharding", std::string(enum_name(s.training.sharding))},
            {"recompute", std::string(enum_name(s.training.recompute))},
            {"weight_bytes_per_gpu", t.weight_bytes},
            {"gradient_bytes_per_gpu", t.gradient_bytes},
            {"optimizer_bytes_per_gpu", t.optimizer_bytes},
            {"reference_bytes_per_gpu", t.reference_bytes},
            {"activation_bytes_per_gpu", t.activation_bytes},
            {"total_bytes_per_gpu", t.total_bytes()},
            {"headroom_bytes_per_gpu", t.headroom_bytes()}}}};
}

std::string attention_pricing(const Scenario& s) {
  return attention_kernel_pricing(s.training.attention_kernel,
                                  compute_peak(s.cluster.pool(s.training.pool)->card, s.training.weights));
}

/// The calibrated RL run terms the run used (null without): per phase, the share of rlsim's
/// modelled speed the calibrated run reached.
nlohmann::json rl_run_json(const RunMetrics& m) {
  if (!m.rl_run) return nullptr;
  const RlRunTerms& t = *m.rl_run;
  return {{"framework", t.framework},
          {"card", t.card},
          {"generation_efficiency", t.generation_efficiency},
          {"forward_efficiency", t.forward_efficiency},
          {"update_efficiency", t.update_efficiency}};
}

/// How the trainer ran the step: its layout, sequence balance and attention kernel (and what priced
/// that kernel), and the slowest DP rank over the mean one.
nlohmann::json training_json(const Scenario& s, const RunMetrics& m) {
  const TrainingSpec& t = s.training;
  return {{"dp", training_layout(s).dp},
          {"tp", t.tp},
          {"pp", t.pp},
          {"balance", std::string(enum_name(t.balance))},
          {"attention_kernel", std::string(enum_name(t.attention_kernel))},
          {"attention_priced_by", attention_pricing(s)},
          {"rank_imbalance", m.rank_imbalance},
          {"rl_run", rl_run_json(m)}};
}

/// Which steps the per-step figures cover (sim/engine/steady_state.h).
nlohmann::json steady_state_json(const RunMetrics& m) {
  const SteadyWindow& w = m.steady;
  nlohmann::json steps = nlohmann::json::array();
  for (size_t i = 0; i < m.per_step.size(); ++i) {
    if (w.contains_step(i)) steps.push_back(m.per_step[i].step);
  }
  return {{"steps", steps},
          {"warmup_steps", w.warmup_steps},
          {"drain_steps", w.drain_steps},
          {"start_s", w.start_s},
          {"end_s", w.end_s},
          {"enough_to_rank", w.steps >= kStepsToRank},
          {"covers",
           "step time's steady_mean and interval, throughput, bubble, GPU seconds and utilisation, pools, "
           "inference latencies and load, cost, phases, verl timing, MFU, staleness and advice"}};
}

}  // namespace

nlohmann::json metrics_json(const Scenario& scenario, const RunMetrics& m) {
  nlohmann::json j;
  j["scenario"] = scenario.name;
  j["policy"] = m.policy;
  j["seed"] = m.seed;
  j["steps"] = m.steps;
  j["sim_time_s"] = m.sim_time_s;
  j["step_time_s"] = percentiles_json(m.step_time_s);
  j["step_time_s"]["steady_mean"] = m.steady_step_time.mean;
  j["step_time_s"]["steady_ci95"] = nlohmann::json::array();
  if (m.steady_step_time.known)
    j["step_time_s"]["steady_ci95"] = {m.steady_step_time.low(), m.steady_step_time.high()};
  j["steady_state"] = steady_state_json(m);
  nlohmann::json per_step = nlohmann::json::array();
  for (const StepRecord& s : m.per_step) {
    per_step.push_back({{"step", s.step},
                        {"start_s", s.start_s},
                        {"end_s", s.end_s},
                        {"duration_s", s.end_s - s.start_s},
                        {"rollout_s", s.rollout_s},
                        {"train_s", s.train_s},
                        {"weight_sync_s", s.weight_sync_s},
                        {"switch_s", s.switch_s},
                        {"samples", s.samples},
                        {"truncated_samples", s.truncated},
                        {"generated_tokens", s.generated_tokens},
                        {"staleness_versions", s.staleness}});
  }
  j["per_step"] = per_step;
  j["throughput"] = {{"samples_per_s", m.samples_per_s}, {"tokens_per_s", m.tokens_per_s}};
  j["responses"] = {{"truncated_fraction", m.truncated_fraction}};
  nlohmann::json causes = nlohmann::json::object();
  for (WaitCause cause : enum_values<WaitCause>()) {
    if (always_reported(cause)) causes[std::string(enum_name(cause))] = 0.0;
  }
  for (const auto& [cause, fraction] : m.bubble_by_cause) causes[std::string(enum_name(cause))] = fraction;
  j["bubble"] = {{"fraction", m.bubble_fraction}, {"by_cause", causes}};
  nlohmann::json states = nlohmann::json::object();
  for (const auto& [state, seconds] : m.gpu_seconds_by_state) states[to_string(state)] = seconds;
  j["gpu_seconds_by_state"] = states;
  j["gpu_utilization"] = m.gpu_utilization;
  nlohmann::json pools = nlohmann::json::object();
  for (const auto& [name, p] : m.pools) {
    pools[name] = {{"gpus", p.gpus}, {"busy_fraction", p.busy_fraction}, {"wait_fraction", p.wait_fraction}};
  }
  j["pools"] = pools;
  j["inference"] = {{"ttft_s", percentiles_json(m.ttft_s)},
                    {"tpot_s", percentiles_json(m.tpot_s)},
                    {"batch_occupancy", m.rollout_load.batch_occupancy},
                    {"kv_use", {{"mean", m.rollout_load.kv_use_mean}, {"max", m.rollout_load.kv_use_max}}}};
  j["cost"] = {{"usd_per_step", m.usd_per_step}, {"usd_per_1m_tokens", m.usd_per_1m_tokens}};
  j["phases_s"] = m.phase_mean_s;
  j["verl_timing_s"] = verl_timing_s(scenario, m);
  const TrainingMfu mfu = training_mfu(scenario, m);
  j["mfu"] = {{"training", mfu.by_phase},
              {"by_pool", mfu.by_pool},
              {"trained_tokens", m.trained_tokens},
              {"forward_model_flops_per_token", mfu.model_flops_per_token_forward}};
  j["training"] = training_json(scenario, m);
  j["memory"] = memory_json(scenario);
  j["engine"] = {{"simgrid_activities", m.simgrid_activities()},
                 {"simgrid_execs", m.simgrid_execs},
                 {"simgrid_sleeps", m.simgrid_sleeps},
                 {"simgrid_messages", m.simgrid_messages},
                 {"simgrid_actors", m.simgrid_actors}};
  j["pricing"] = pricing_json(scenario, m.cost_model, m.prices);
  j["agents"] = {{"agent_waits_llm", m.agent_waits_llm}};
  j["staleness"] = {{"mean_versions", m.staleness_mean}};
  if (m.faults.events > 0) {
    j["faults"] = {{"events", m.faults.events},
                   {"gpus_failed", m.faults.gpus_failed},
                   {"gpus_stopped", m.faults.gpus_stopped},
                   {"gpu_seconds_down", m.faults.gpu_seconds_down},
                   {"gpu_seconds_stopped", m.faults.gpu_seconds_stopped},
                   {"gpu_seconds_lost", m.faults.gpu_seconds_lost()},
                   {"steps_touched", m.faults.steps_touched},
                   {"steps_touched_outside_steady_state", fault_steps_outside_steady(m)},
                   {"links_failed", m.faults.links_failed},
                   {"link_seconds_down", m.faults.link_seconds_down}};
  }
  j["advice"] = {{"wait_fraction", m.advice.wait_fraction},
                 {"recommendation", m.advice.recommendation},
                 {"reason", m.advice.reason}};
  return j;
}

void write_trace_json(std::ostream& out, const Scenario& scenario, const Timeline& timeline,
                      const std::vector<std::vector<LoadSample>>& instance_load,
                      const TraceOptions& options) {
  ChromeTraceStyle style;
  style.collapse_track_sets = !options.gpu_tracks;
  style.process_name = [](const std::string& group) { return "pool " + group; };
  style.index_key = "step";
  style.state_arg = true;
  style.other_data = {{"scenario", scenario.name}, {"seed", scenario.seed}, {"policy", scenario.policy.name}};
  style.extra_events = [&](TraceWriter& writer) {
    write_instance_load_counters(writer, instance_load);
    if (options.requests) write_request_slices(writer, timeline.calls(), RequestNaming::trajectory_turn);
  };
  write_chrome_trace(out, timeline, style);
}

std::string ledger_jsonl(const std::vector<LedgerEntry>& ledger) {
  std::string out;
  for (const LedgerEntry& e : ledger) {
    nlohmann::ordered_json line{{"trajectory", e.trajectory},
                                {"turn", e.turn},
                                {"step", e.step},
                                {"instance", e.instance},
                                {"weight_version", e.mean_weight_version},
                                {"prompt_tokens", e.prompt_tokens},
                                {"prefilled_tokens", e.prefilled_tokens},
                                {"output_tokens", e.output_tokens},
                                {"submit_s", e.submit_s},
                                {"first_token_s", e.first_token_s},
                                {"finish_s", e.finish_s},
                                {"ttft_s", e.first_token_s - e.submit_s},
                                {"latency_s", e.finish_s - e.submit_s}};
    out += line.dump();
    out += '\n';
  }
  return out;
}

namespace {

/// "p50 X / p99 Y" with p99 only when there are enough samples to tell it from the maximum.
std::string distribution(const Percentiles& p) {
  if (p.samples == 0) return "no samples";
  std::string out = "p50 " + readable_duration(p.p50);
  out += p.samples >= kSamplesForP99 ? " / p99 " + readable_duration(p.p99)
                                     : " / max " + readable_duration(p.max);
  return out + " (" + std::to_string(p.samples) + " calls)";
}

/// One line per step: its duration, phases, samples and staleness.
std::string per_step_table(const RunMetrics& m) {
  std::string out = "  " + padded("step", 6) + padded("time", 11) + padded("rollout", 11) +
                    padded("train", 11) + padded("sync", 11) + padded("switch", 11) + padded("samples", 9) +
                    "staleness\n";
  for (size_t i = 0; i < m.per_step.size(); ++i) {
    const StepRecord& s = m.per_step[i];
    const char* mark = m.steady.contains_step(i)                     ? ""
                       : static_cast<int>(i) < m.steady.warmup_steps ? "w"
                                                                     : "d";
    out += "  " + padded(std::to_string(s.step) + mark, 6) +
           padded(readable_duration(s.end_s - s.start_s), 11) + padded(readable_duration(s.rollout_s), 11) +
           padded(readable_duration(s.train_s), 11) + padded(readable_duration(s.weight_sync_s), 11) +
           padded(readable_duration(s.switch_s), 11) + padded(std::to_string(s.samples), 9) +
           fixed(s.staleness, 2) + " versions\n";
  }
  if (m.steady.warmup_steps + m.steady.drain_steps > 0)
    out += "  w warm-up, d drain: left out of every per-step figure\n";
  return out;
}

/// "41.2 s mean over 6 steps (95 % interval 39.8 s to 42.6 s; warm-up and drain steps left out)", and
/// a warning when there are too few steady steps to rank on.
std::string steady_step_time_text(const RunMetrics& m) {
  const SteadyWindow& w = m.steady;
  const MeanInterval& t = m.steady_step_time;
  std::string out = readable_duration(t.mean) + " mean over " + std::to_string(w.steps) + " step" +
                    (w.steps == 1 ? "" : "s");
  std::string notes;
  if (t.known) notes = "95 % interval " + readable_duration(t.low()) + " to " + readable_duration(t.high());
  const char* left_out = w.drain_steps > 0    ? "warm-up and drain steps left out"
                         : w.warmup_steps > 0 ? "warm-up step left out"
                                              : "";
  if (*left_out) notes += (notes.empty() ? "" : "; ") + std::string(left_out);
  if (!notes.empty()) out += " (" + notes + ")";
  if (w.steps < kStepsToRank)
    out += "; too few steady steps to rank on: run at least " + std::to_string(kStepsToRank + 2) +
           " steps (--set workload.steps=N)";
  return out;
}

}  // namespace

std::string summary_table(const Scenario& scenario, const RunMetrics& m) {
  std::string out;
  // "%-28s %s" without snprintf's limit on the line: a cost model line grows with the op classes.
  auto add = [&](const char* label, const std::string& value) {
    out += "  " + padded(label, 29) + value + "\n";
  };
  auto fmt = [](const char* format, double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v);
    return std::string(buffer);
  };
  out += "rlsim: " + scenario.name + " (policy " + m.policy + ", seed " + std::to_string(m.seed) +
         ", model " + scenario.model.name + ")\n";
  add("steps", std::to_string(m.steps));
  add("simulated time", readable_duration(m.sim_time_s));
  add("step time, steady state", steady_step_time_text(m));
  add("step time, all steps",
      readable_duration(m.step_time_s.mean) + " mean, " + readable_duration(m.step_time_s.max) + " max");
  add("throughput", fmt("%.2f samples/s", m.samples_per_s) + ", " + fmt("%.0f tokens/s", m.tokens_per_s));
  add("responses cut",
      fmt("%.1f %% of samples at the length cap or context limit", 100.0 * m.truncated_fraction) +
          " (verl's response_length/clip_ratio)");
  add("GPU utilisation", fmt("%.1f %%", 100.0 * m.gpu_utilization));
  add("bubble (GPU time waiting)", fmt("%.1f %%", 100.0 * m.bubble_fraction));
  std::map<std::string, double> causes_by_name;  // listed alphabetically
  for (const auto& [cause, fraction] : m.bubble_by_cause)
    causes_by_name[to_string(GpuState::wait(cause))] = fraction;
  for (const auto& [name, fraction] : causes_by_name)
    add(("  " + name).c_str(), fmt("%.1f %%", 100.0 * fraction));
  for (const auto& [name, pool] : m.pools) {
    add(("pool " + name).c_str(), std::to_string(pool.gpus) + " GPUs, " +
                                      fmt("%.1f %% busy", 100.0 * pool.busy_fraction) + ", " +
                                      fmt("%.1f %% waiting", 100.0 * pool.wait_fraction));
  }
  add("phases per step (mean)", "rollout " + readable_duration(m.phase_mean_s.at("rollout")) + ", train " +
                                    readable_duration(m.phase_mean_s.at("train")) + ", sync " +
                                    readable_duration(m.phase_mean_s.at("weight_sync")) + ", switch " +
                                    readable_duration(m.phase_mean_s.at("switch")));
  std::string verl;
  for (const auto& [name, seconds] : verl_timing_s(scenario, m))
    verl += (verl.empty() ? "" : ", ") + name + fmt(" %.2f s", seconds);
  add("verl timing per step (mean)", verl);
  const TrainingMfu mfu = training_mfu(scenario, m);
  auto mfu_line = [&](const std::map<std::string, double>& by_phase) {
    std::string text;
    for (const auto& [name, value] : by_phase)
      text += (text.empty() ? "" : ", ") + name + fmt(" %.1f %%", 100.0 * value);
    return text;
  };
  if (!mfu.by_phase.empty()) add("MFU (model FLOPs / peak)", mfu_line(mfu.by_phase));
  if (mfu.by_pool.size() > 1) {
    for (const auto& [pool, by_phase] : mfu.by_pool) add(("  pool " + pool).c_str(), mfu_line(by_phase));
  }
  add("trainer",
      "dp " + std::to_string(training_layout(scenario).dp) + " × tp " + std::to_string(scenario.training.tp) +
          " × pp " + std::to_string(scenario.training.pp) +
          (scenario.training.balance == RankBalance::tokens ? ", sequences balanced over the ranks by tokens"
                                                            : ", sequences split over the ranks by count") +
          fmt(" (slowest rank %.2f× the mean)", m.rank_imbalance) + ", attention " +
          std::string(enum_name(scenario.training.attention_kernel)) + " (" + attention_pricing(scenario) +
          ")");
  add("decode batch occupancy",
      fmt("%.1f %% of max_batch while generating", 100.0 * m.rollout_load.batch_occupancy) + ", KV use " +
          fmt("%.1f %% mean", 100.0 * m.rollout_load.kv_use_mean) + ", " +
          fmt("%.1f %% max", 100.0 * m.rollout_load.kv_use_max));
  add("staleness", fmt("%.2f weight versions (mean per trained token)", m.staleness_mean));
  add("agents waiting on LLM", fmt("%.1f %% of agent time", 100.0 * m.agent_waits_llm));
  add("TTFT", distribution(m.ttft_s));
  add("TPOT", distribution(m.tpot_s));
  add("cost",
      fmt("%.2f USD/step", m.usd_per_step) + ", " + fmt("%.2f USD per 1M tokens", m.usd_per_1m_tokens));
  add("cost model", pricing_text(scenario, m.cost_model, m.prices));
  if (const auto& run = m.rl_run) {
    add("calibrated RL run",
        run->framework + " on " + run->card + ": " +
            fmt("generation %.0f %%", 100.0 * run->generation_efficiency) +
            fmt(", forward passes %.0f %%", 100.0 * run->forward_efficiency) +
            fmt(", update %.0f %% of rlsim's modelled speed", 100.0 * run->update_efficiency));
  }
  const std::string weight_only =
      weight_only_note(scenario.cluster.pool(scenario.rollout.pool)->card, scenario.rollout.weights);
  if (!weight_only.empty()) add("", weight_only);
  if (m.faults.events > 0) {
    add("faults",
        std::to_string(m.faults.events) + " events: " + std::to_string(m.faults.gpus_failed) +
            " GPUs failed, " + std::to_string(m.faults.gpus_stopped) + " stopped, " +
            fmt("%.0f GPU-s lost (restarts included)", m.faults.gpu_seconds_lost()) + ", " +
            fault_steps_text(m) +
            (m.faults.links_failed > 0 ? ", " + std::to_string(m.faults.links_failed) + " links down " +
                                             readable_duration(m.faults.link_seconds_down)
                                       : std::string()));
  }
  out += "per step:\n" + per_step_table(m);
  out += "advice: " + m.advice.recommendation + " - " + m.advice.reason + "\n";
  return out;
}

}  // namespace rlsim
