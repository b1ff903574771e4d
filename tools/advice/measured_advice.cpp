// Remedies simulated and ranked against the run (measured_advice.h).
#include "tools/advice/measured_advice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "sim/process/child_pool.h"

namespace rlsim {
namespace {

/// Whether `o` measured shorter than the run by more than either interval and 0.5 %.
bool helped(const TrialOutcome& o, double base, double base_half) {
  return o.ran && o.steady_step_s < base - std::max({base_half, o.steady_half_width_s, 0.005 * base});
}

std::string fmt(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string change_percent(double now, double was) {
  return was > 0.0 ? fmt("%+.1f %%", 100.0 * (now / was - 1.0)) : std::string("-");
}

}  // namespace

MeasuredAdvice try_remedies(const std::string& file, const LoadOptions& options, const Scenario& scenario,
                            int jobs, int most) {
  MeasuredAdvice out;
  std::vector<RemedyTrial> trials = remedy_trials(scenario);
  const size_t all = trials.size();
  if (trials.size() > static_cast<size_t>(std::max(0, most)))
    trials.resize(static_cast<size_t>(std::max(0, most)));
  size_t next = 0;
  while (next < trials.size()) {
    const size_t end = std::min(trials.size(), next + static_cast<size_t>(std::max(1, jobs)));
    std::vector<long> batch;
    for (size_t i = next; i < end; ++i) batch.push_back(static_cast<long>(i));
    std::vector<TrialOutcome> done(end - next);
    const ChildOutcome failure = run_in_children(
        batch, jobs,
        [&](long i) { return simulate_trial(file, options, trials[static_cast<size_t>(i)].sets); },
        [&](const ChildOutcome& c) {
          if (!c.ok) return;
          TrialOutcome& o = done[static_cast<size_t>(c.job) - next];
          static_cast<TrialFigures&>(o) = trial_figures(c.text);
          o.trial = trials[static_cast<size_t>(c.job)];
        });
    if (!failure.ok) {
      // A remedy rlsim built that does not load is rlsim's fault, not the user's input.
      if (failure.input_error) throw std::runtime_error("an advice trial failed: " + failure.text);
      rethrow_child_failure(failure, "an advice trial");
    }
    for (TrialOutcome& o : done) out.outcomes.push_back(std::move(o));
    next = end;
  }
  out.not_tried = static_cast<int>(all - trials.size());
  return out;
}

std::string measured_advice_text(const MeasuredAdvice& advice, const nlohmann::json& metrics,
                                 const std::string& scenario_arguments) {
  const auto [base, base_half] = steady_step(metrics);
  const double base_usd = metrics["cost"]["usd_per_step"].get<double>();
  std::vector<const TrialOutcome*> better, worse, failed;
  for (const TrialOutcome& o : advice.outcomes)
    (helped(o, base, base_half) ? better : o.ran ? worse : failed).push_back(&o);
  std::sort(better.begin(), better.end(),
            [](const TrialOutcome* a, const TrialOutcome* b) { return a->steady_step_s < b->steady_step_s; });
  // No wall time here: the text is in report.html, whose bytes depend on the scenario alone.
  std::string text =
      "advice, measured: " + std::to_string(advice.outcomes.size()) + " changes simulated" +
      (advice.not_tried > 0
           ? " (" + std::to_string(advice.not_tried) + " more not tried: --advice-trials N tries more)"
           : "") +
      "; steady step " + fmt("%.2f s", base) + (base_half > 0.0 ? fmt(" ± %.2f s", base_half) : "") + "\n";
  if (better.empty()) {
    text += "  none shortened the steady step beyond its 95 % interval: no change is advised\n";
  }
  for (size_t i = 0; i < better.size(); ++i) {
    const TrialOutcome& o = *better[i];
    std::string sets;
    for (const std::string& set : o.trial.sets) sets += " --set " + set;
    text += "  " + std::to_string(i + 1) + ". " + o.trial.change + ": steady step " +
            fmt("%.2f s", o.steady_step_s) + " (" + change_percent(o.steady_step_s, base) + "), " +
            fmt("%.2f USD/step", o.usd_per_step) + " (" + change_percent(o.usd_per_step, base_usd) +
            "), staleness " + fmt("%.2f", o.staleness) + "\n" + "     rlsim run " + scenario_arguments +
            sets + "\n";
  }
  // Not advised: shorter, but within the intervals; or no shorter at all.
  std::string unclear, slower;
  for (const TrialOutcome* o : worse) {
    std::string& list = o->steady_step_s < base ? unclear : slower;
    list += (list.empty() ? "" : ", ") + o->trial.change + " " + change_percent(o->steady_step_s, base);
  }
  if (!unclear.empty()) text += "  shorter but within the intervals (not advised): " + unclear + "\n";
  if (!slower.empty()) text += "  no shorter: " + slower + "\n";
  if (!failed.empty()) {
    std::string list;
    for (const TrialOutcome* o : failed) list += (list.empty() ? "" : ", ") + o->trial.change;
    text += "  cannot run this scenario: " + list + "\n";
  }
  return text;
}

std::string with_measured_advice(const std::string& summary, const std::string& measured) {
  const size_t at = summary.find("\nadvice: ");
  if (at == std::string::npos) return summary + measured;
  const size_t end = summary.find('\n', at + 1);
  return summary.substr(0, at + 1) + measured + (end == std::string::npos ? "" : summary.substr(end + 1));
}

nlohmann::json measured_advice_json(const MeasuredAdvice& advice, const nlohmann::json& metrics) {
  const auto [base, base_half] = steady_step(metrics);
  nlohmann::json trials = nlohmann::json::array();
  for (const TrialOutcome& o : advice.outcomes) {
    nlohmann::json t{
        {"remedy", o.trial.remedy}, {"change", o.trial.change}, {"sets", o.trial.sets}, {"ran", o.ran}};
    if (o.ran) {
      t["steady_step_s"] = o.steady_step_s;
      t["steady_half_width_s"] = o.steady_half_width_s;
      t["usd_per_step"] = o.usd_per_step;
      t["staleness_versions"] = o.staleness;
      t["helped"] = helped(o, base, base_half);
    } else {
      t["why_not"] = o.why_not;
    }
    trials.push_back(std::move(t));
  }
  return {{"trials", trials}, {"not_tried", advice.not_tried}};
}

}  // namespace rlsim
