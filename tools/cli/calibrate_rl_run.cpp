// A whole RL run's terms fitted by simulating its logged steps (calibrate_rl_run.h).
#include "tools/cli/calibrate_rl_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "calibrate/device_facts.h"
#include "calibrate/verl_metrics.h"
#include "sim/engine/simulation.h"
#include "sim/engine/workload.h"
#include "sim/process/child_pool.h"
#include "sim/scenario/profile_loader.h"
#include "tools/report/progress.h"
#include "tools/report/verl_timing.h"

namespace rlsim {
namespace {

constexpr size_t kMostFitSteps = 40;
constexpr size_t kMostHeldOutSteps = 20;
constexpr int kRounds = 3;  // simulations at the terms so far, each refining them

/// A phase of the step as verl times it and as rlsim simulates it.
struct PhaseDef {
  const char* name;
  std::vector<std::string> keys;  ///< verl's timers it sums (subtracted: `minus`)
  std::vector<std::string> minus;
};

const std::vector<PhaseDef>& phase_defs() {
  static const std::vector<PhaseDef> defs{
      {"gen", {"timing_s/gen"}, {}},
      {"forward", {"timing_s/old_log_prob", "timing_s/ref", "timing_s/values"}, {}},
      {"update", {"timing_s/update_actor", "timing_s/update_critic"}, {}},
      // Validation and checkpoints run inside verl's step timer; rlsim's step has neither.
      {"step", {"timing_s/step"}, {"timing_s/testing", "timing_s/save_checkpoint"}}};
  return defs;
}

/// The logged seconds of `def` in `step`, or NaN when the step times none of its keys.
double logged(const PhaseDef& def, const VerlStep& step) {
  double sum = 0.0;
  bool any = false;
  for (const std::string& key : def.keys) {
    if (step.has(key)) {
      sum += step.value_or(key, 0.0);
      any = true;
    }
  }
  if (!any) return std::nan("");
  for (const std::string& key : def.minus) sum -= step.value_or(key, 0.0);
  return sum;
}

std::string joined(const std::vector<std::string>& keys, const VerlLog& log) {
  std::string out;
  for (const std::string& key : keys) {
    const bool present =
        std::any_of(log.steps.begin(), log.steps.end(), [&](const VerlStep& s) { return s.has(key); });
    if (present) out += (out.empty() ? "" : " + ") + key;
  }
  return out;
}

/// The scenario must run the passes the log times, and only those.
void check_passes(const Scenario& s, const VerlLog& log) {
  const std::vector<std::string> runs = s.training.extra_forwards();
  const std::map<std::string, std::string> fix{{"old_log_prob", "training.rollout_log_probs: false"},
                                               {"ref", "training.reference_model: true"},
                                               {"values", "training.algorithm: ppo (a critic)"}};
  for (const auto& [pass, setting] : fix) {
    const std::string key = "timing_s/" + pass;
    const auto timed =
        std::find_if(log.steps.begin(), log.steps.end(), [&](const VerlStep& st) { return st.has(key); });
    const bool simulated = std::find(runs.begin(), runs.end(), pass) != runs.end();
    if (timed != log.steps.end() && !simulated)
      throw InputError({log.file, timed->line, 1}, "the log times " + key + " but the scenario (" + s.file +
                                                       ") runs no such pass: set " + setting +
                                                       " so that it describes the run");
    if (timed == log.steps.end() && simulated)
      throw InputError({log.file, 0, 0}, "the scenario (" + s.file + ") runs a " + pass +
                                             " pass the log never times (" + key +
                                             "): change the scenario so that it describes the run");
  }
}

/// At most `most` of `indices`, evenly spread, first and last kept.
std::vector<size_t> spread(const std::vector<size_t>& indices, size_t most) {
  if (indices.size() <= most) return indices;
  std::vector<size_t> kept;
  for (size_t i = 0; i < most; ++i) kept.push_back(indices[i * (indices.size() - 1) / (most - 1)]);
  return kept;
}

/// `d` stretched to the step's logged mean, or InputError naming the step's line.
Distribution stretched_to(const Distribution& d, const VerlStep& step, const std::string& key,
                          const std::string& field, const std::string& file) {
  const double mean = step.value_or(key, 0.0);
  const std::optional<Distribution> scaled = scaled_to_mean(d, mean);
  if (!scaled)
    throw InputError({file, step.line, 1}, "step " + std::to_string(step.step) + "'s " + key + " of " +
                                               std::to_string(mean) +
                                               " tokens cannot be reached by the scenario's " + field +
                                               " (its caps hold its mean elsewhere): widen its max");
  return *scaled;
}

/// Runs in a child: the step as one synchronous step under `terms`, rlsim's phases as verl names them.
std::string simulate_step(const RlRunRequest& request, const VerlStep& step, const RlRunTerms& terms,
                          const std::string& log_file, bool log_times_sync) {
  LoadOptions options = request.options;
  options.overrides.emplace_back("workload.steps=1");
  LoadedScenario loaded = load_scenario(request.scenario, options);
  WorkloadSpec& w = loaded.scenario.workload;
  if (step.has("response_length/mean"))
    w.output_tokens =
        stretched_to(w.output_tokens, step, "response_length/mean", "workload.output_tokens", log_file);
  if (step.has("prompt_length/mean"))
    w.prompt_tokens =
        stretched_to(w.prompt_tokens, step, "prompt_length/mean", "workload.prompt_tokens", log_file);
  SimulationOptions sim;
  sim.rl_run = &terms;
  const SimulationResult result = simulate(loaded.scenario, sim);
  const std::map<std::string, double> verl = verl_timing_s(loaded.scenario, result.metrics);
  auto at = [&](const char* key) { return verl.count(key) ? verl.at(key) : 0.0; };
  auto phase = [&](const char* key) {
    const auto it = result.metrics.phase_mean_s.find(key);
    return it == result.metrics.phase_mean_s.end() ? 0.0 : it->second;
  };
  // verl (through 0.7) times the weight sync and the engine's wake-up inside gen.
  const double sync = log_times_sync ? 0.0 : at("update_weights") + phase("switch");
  return nlohmann::json{{"gen", at("gen") + sync},
                        {"forward", at("old_log_prob") + at("ref") + at("values")},
                        {"update", at("update_actor")},
                        {"step", result.metrics.step_time_s.mean},
                        {"clip", result.metrics.truncated_fraction}}
      .dump();
}

double& term_of(RlRunTerms& t, const std::string& phase) {
  if (phase == "gen") return t.generation_efficiency;
  if (phase == "forward") return t.forward_efficiency;
  return t.update_efficiency;
}

HardwareProfile base_profile(const Scenario& s, const HardwareSpec& card, const RlRunRequest& request) {
  if (!s.profile.empty()) {
    HardwareProfile p = load_profile(s.profile);
    if (p.card != card.name)
      throw InputError({s.file, 0, 0}, "the scenario's profile (" + s.profile + ") is for " + p.card +
                                           ", the run trains on " + card.name +
                                           ": give a scenario without a profile or with one for " +
                                           card.name);
    return p;
  }
  HardwareProfile p;
  p.card = card.name;
  p.device = card.name;
  p.date = request.date.empty() ? "unknown" : request.date;
  const auto facts = known_device_facts(card.name);
  // No op fits here: the SM count and L2 size are recorded where known, for fits added later.
  p.sm_count = request.sm_count > 0 ? request.sm_count : facts ? facts->sm_count : 0;
  p.l2_bytes = facts ? facts->l2_bytes : 0.0;
  return p;
}

}  // namespace

RlRunCalibration calibrate_rl_run(const RlRunRequest& request) {
  const VerlLog log = read_verl_log(request.log);
  const LoadedScenario loaded = load_scenario(request.scenario, request.options);
  const Scenario& s = loaded.scenario;
  if (s.policy.name != "colocated" && s.policy.name != "disaggregated")
    throw InputError({s.file, 0, 0},
                     "calibrate --format verl fits verl's synchronous trainer: the scenario's "
                     "policy must be colocated or disaggregated, not " +
                         s.policy.name);
  check_passes(s, log);
  const HardwareSpec& card = s.cluster.pool(s.training.pool)->card;
  if (!request.card.empty() && request.card != card.name)
    throw InputError({"--hardware", 0, 0}, "the run trains on " + card.name +
                                               " (the scenario's training pool), not " + request.card +
                                               ": leave --hardware out or name that card");
  RlRunCalibration out;
  out.profile = base_profile(s, card, request);
  out.log_steps = static_cast<int>(log.steps.size());
  if (s.cluster.pool(s.rollout.pool)->card.name != card.name)
    out.notes.push_back("the rollout runs on " + s.cluster.pool(s.rollout.pool)->card.name +
                        ", not on the profile's card " + card.name +
                        ": the generation term is fitted but applies to " + card.name + " pools only");

  // Every fifth step held out (from 5 steps on), the rest fitted.
  std::vector<size_t> fit, held;
  for (size_t i = 0; i < log.steps.size(); ++i)
    ((log.steps.size() >= 5 && (i + 1) % 5 == 0) ? held : fit).push_back(i);
  fit = spread(fit, kMostFitSteps);
  held = spread(held, kMostHeldOutSteps);
  out.fit_steps = static_cast<int>(fit.size());
  out.held_out_steps = static_cast<int>(held.size());
  if (held.empty())
    out.notes.push_back("fewer than 5 steps in the log: no step held out, the fit is not scored");
  const bool log_times_sync = std::any_of(log.steps.begin(), log.steps.end(), [](const VerlStep& st) {
    return st.has("timing_s/update_weights");
  });

  using Sims = std::map<size_t, nlohmann::json>;  // log step index -> rlsim's phases
  std::optional<Progress> progress;
  progress.emplace(static_cast<long>(2 * (fit.size() + held.size()) + (kRounds - 1) * fit.size()),
                   request.progress);
  auto run = [&](const std::vector<size_t>& steps, const RlRunTerms& terms) {
    Sims sims;
    std::vector<long> jobs(steps.begin(), steps.end());
    const ChildOutcome failure = run_in_children(
        jobs, std::max(1, request.jobs),
        [&](long job) {
          return timed([&]() {
            return simulate_step(request, log.steps[static_cast<size_t>(job)], terms, log.file,
                                 log_times_sync);
          });
        },
        [&](const ChildOutcome& o) {
          if (!o.ok) return;
          const auto [seconds, text] = untimed(o.text);
          sims[static_cast<size_t>(o.job)] = nlohmann::json::parse(text);
          progress->finished("step " + std::to_string(log.steps[static_cast<size_t>(o.job)].step), seconds);
        });
    if (!failure.ok) rethrow_child_failure(failure, "a simulated step");
    out.simulations += static_cast<int>(steps.size());
    return sims;
  };
  // Sums of logged and simulated seconds of a phase over `steps` (those that log it).
  auto sums = [&](const PhaseDef& def, const std::vector<size_t>& steps, const Sims& sims) {
    std::pair<double, double> logged_simulated{0.0, 0.0};
    for (size_t i : steps) {
      const double l = logged(def, log.steps[i]);
      if (std::isnan(l)) continue;
      logged_simulated.first += l;
      logged_simulated.second += sims.at(i)[def.name].get<double>();
    }
    return logged_simulated;
  };
  auto mape = [&](const PhaseDef& def, const std::vector<size_t>& steps, const Sims& sims, double* worst) {
    double sum = 0.0;
    int n = 0;
    for (size_t i : steps) {
      const double l = logged(def, log.steps[i]);
      if (std::isnan(l) || l <= 0.0) continue;
      const double e = std::abs(sims.at(i)[def.name].get<double>() - l) / l;
      sum += e;
      ++n;
      if (worst) *worst = std::max(*worst, e);
    }
    return n > 0 ? sum / n : 0.0;
  };

  RlRunTerms terms;
  terms.card = card.name;
  terms.framework = "verl";
  const RlRunTerms uncalibrated = terms;
  std::vector<size_t> all = fit;
  all.insert(all.end(), held.begin(), held.end());
  const Sims before = run(all, uncalibrated);
  Sims sims = before;
  for (int round = 0; round < kRounds; ++round) {
    if (round > 0) sims = run(fit, terms);
    for (const PhaseDef& def : phase_defs()) {
      if (std::string(def.name) == "step") continue;
      const auto [l, simulated] = sums(def, fit, sims);
      if (l <= 0.0 || simulated <= 0.0) continue;
      double& e = term_of(terms, def.name);
      e *= simulated / l;
      if (e < 1e-3 || e > 10.0)
        throw InputError({log.file, 0, 0},
                         std::string("the log's ") + def.name + " is " + std::to_string(l / simulated) +
                             "x rlsim's: the scenario does not describe this run (check its "
                             "model, GPUs, batch and lengths)");
    }
  }
  const Sims after = run(all, terms);

  for (const PhaseDef& def : phase_defs()) {
    const auto [l, simulated_before] = sums(def, fit, before);
    if (l <= 0.0) {
      if (std::string(def.name) != "step")
        out.notes.push_back(std::string("the log times no ") + def.name + " (" + def.keys.front() +
                            "): its term stays 1");
      continue;
    }
    RlRunPhase p;
    p.name = def.name;
    p.logged_as = joined(def.keys, log);
    int n = 0;
    for (size_t i : fit) n += std::isnan(logged(def, log.steps[i])) ? 0 : 1;
    p.logged_s = l / n;
    p.uncalibrated_s = simulated_before / n;
    p.calibrated_s = sums(def, fit, after).second / n;
    p.efficiency = std::string(def.name) == "step" ? 1.0 : term_of(terms, def.name);
    p.held_out_mape = mape(def, held, after, nullptr);
    p.held_out_uncalibrated_mape = mape(def, held, before, nullptr);
    out.phases.push_back(p);
  }
  // The share of responses cut at the cap, the log's against the fitted steps' simulations.
  double logged_clip = 0.0, simulated_clip = 0.0;
  int clipped_steps = 0;
  for (size_t i : fit) {
    if (!log.steps[i].has("response_length/clip_ratio")) continue;
    logged_clip += log.steps[i].value_or("response_length/clip_ratio", 0.0);
    simulated_clip += after.at(i)["clip"].get<double>();
    ++clipped_steps;
  }
  if (clipped_steps > 0) {
    char text[160];
    std::snprintf(
        text, sizeof text,
        "responses cut at the length cap: %.1f %% logged (response_length/clip_ratio), %.1f %% simulated",
        100.0 * logged_clip / clipped_steps, 100.0 * simulated_clip / clipped_steps);
    out.notes.push_back(std::string(text) +
                        ": how the scenario's length distribution's tail meets the run's");
  }
  const PhaseDef& step = phase_defs().back();
  terms.error.fit_points = out.fit_steps;
  terms.error.held_out_points = out.held_out_steps;
  terms.error.held_out_mape = mape(step, held, after, &terms.error.held_out_max_error);
  terms.error.datasheet_held_out_mape = mape(step, held, before, nullptr);
  out.profile.rl_run = terms;
  return out;
}

}  // namespace rlsim
