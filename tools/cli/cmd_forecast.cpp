// `rlsim forecast S.yaml --steps 500`: a whole RL run, not one step. Response lengths grow over
// training (workload.length_schedule); the run's steps are simulated at a few sampled steps (each
// an ordinary simulation of the scenario with output_tokens stretched to that step's mean), the
// steps between interpolated, and evaluations and checkpoint saves added: hours and dollars per
// policy, where the bottleneck moves between rollout and training, and where one policy overtakes
// another (tools/forecast/). Writes DIR/forecast.json, DIR/forecast.csv and DIR/forecast.svg.
#include <iostream>

#include "models/units.h"
#include "sim/engine/simulation.h"
#include "sim/engine/workload.h"
#include "sim/process/child_pool.h"
#include "sim/scenario/plugins.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/forecast/forecast_report.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/output_dir.h"
#include "tools/report/progress.h"
#include "tools/report/run_report.h"
#include "tools/validation/validation_record.h"

namespace rlsim {
namespace {

/// Runs in a child: `file` under `policy`, with output_tokens stretched to `mean` when `stretch`
/// (as written otherwise), simulated; its steady figures as JSON.
std::string simulate_sample(const std::string& file, LoadOptions options, const std::string& policy,
                            bool stretch, double mean) {
  options.policy = policy;
  LoadedScenario loaded = load_scenario(file, options);
  Scenario& s = loaded.scenario;
  if (stretch) s.workload.output_tokens = *scaled_to_mean(s.workload.output_tokens, mean);
  check_policy(s);
  const nlohmann::json m = metrics_json(s, simulate(s).metrics);
  const nlohmann::json& phases = m["phases_s"];
  return nlohmann::json{
      {"step_s", m["step_time_s"]["steady_mean"]},
      {"usd", m["cost"]["usd_per_step"]},
      {"rollout", phases.value("rollout", 0.0)},
      {"train", phases.value("train", 0.0) + phases.value("weight_sync", 0.0) + phases.value("switch", 0.0)}}
      .dump();
}

class ForecastCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand(
        "forecast",
        "Forecast a whole RL run: hours, dollars and where the bottleneck moves as responses grow");
    args_.add_to(sub);
    sub->add_option("--steps", steps_, "Training steps of the run")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    sub->add_option("--samples", samples_, "Steps simulated along the run (besides the schedule's points)")
        ->capture_default_str()
        ->check(CLI::Range(2, 10000));
    sub->add_option("--policies", policies_,
                    "Comma-separated policies to forecast (default: the scenario's)");
    sub->add_option("--eval-every", eval_every_, "An evaluation every this many steps (0: none)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000000));
    sub->add_option("--eval-time", eval_time_, "How long one evaluation takes (e.g. 2min)")
        ->capture_default_str();
    sub->add_option("--checkpoint-every", checkpoint_every_,
                    "A checkpoint save every this many steps (0: none)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000000));
    sub->add_option("--checkpoint-time", checkpoint_time_, "How long one checkpoint save takes (e.g. 1min)")
        ->capture_default_str();
    output_.add_to(sub, "Steps");
    sub->footer(
        "The scenario's workload.length_schedule gives the mean response length at chosen steps, e.g.\n"
        "  length_schedule: [{step: 0, output_tokens_mean: 1500}, {step: 500, output_tokens_mean: 4000}]\n"
        "(linear between them, held beyond); each sampled step runs the scenario as `rlsim run` would, with\n"
        "output_tokens stretched to that mean (its shape and caps kept). Without a schedule every step is\n"
        "the scenario's own. Writes DIR/forecast.json (the totals), DIR/forecast.csv (every simulated\n"
        "step) and DIR/forecast.svg.\n\n"
        "Examples:\n"
        "  rlsim forecast scenarios/colocated-vs-disaggregated.yaml --steps 500 --out out/forecast\n"
        "  rlsim forecast scenarios/colocated-vs-disaggregated.yaml --steps 500 --policies "
        "colocated,disaggregated \\\n"
        "      --eval-every 50 --eval-time 3min --checkpoint-every 100 --checkpoint-time 2min --out "
        "out/forecast");
    return sub;
  }

  int run() override {
    const LoadOptions base = args_.load_options();
    if (const auto kind = scenario_kind_of(args_.file, base); kind->name() != "rl")
      throw InputError({args_.file, 0, 0},
                       "rlsim forecast runs an RL scenario's steps; this one is kind " + kind->name());
    RunExtras extras;
    extras.eval_every = eval_every_;
    extras.eval_s = duration(eval_time_, "--eval-time");
    extras.checkpoint_every = checkpoint_every_;
    extras.checkpoint_s = duration(checkpoint_time_, "--checkpoint-time");
    const LoadedScenario loaded = load_scenario(args_.file, base);
    const Scenario& s = loaded.scenario;
    for (const PoolSpec& pool : s.cluster.pools)
      extras.cluster_usd_per_hour += pool.gpus() * pool.card.usd_per_hour;
    const std::vector<LengthSchedulePoint>& schedule = s.workload.length_schedule;
    for (const LengthSchedulePoint& p : schedule) {
      if (!scaled_to_mean(s.workload.output_tokens, p.output_tokens_mean))
        throw InputError(p.where, "output_tokens cannot average " + format_number(p.output_tokens_mean) +
                                      " tokens: the mean must lie between its floor and its cap (max)");
    }
    std::vector<std::string> policies = comma_separated(policies_);
    if (policies.empty()) policies.push_back(s.policy.name);
    for (const auto& policy : policies) PolicyRegistry::instance().at(policy, {"--policies", 0, 0}, "policy");

    // Without a schedule every step is the scenario's own: one simulation stands for all.
    const std::vector<int> steps =
        schedule.empty() ? std::vector<int>{0} : forecast_sample_steps(steps_, samples_, schedule);
    const double base_mean = drawn_mean(s.workload.output_tokens);
    std::vector<PolicyForecast> forecasts;
    std::vector<long> jobs;
    for (const std::string& policy : policies) {
      PolicyForecast f;
      f.policy = policy;
      for (int step : steps) {
        ForecastSample sample;
        sample.step = step;
        sample.output_tokens_mean = scheduled_output_mean(schedule, base_mean, step);
        f.samples.push_back(sample);
        jobs.push_back(static_cast<long>(jobs.size()));
      }
      forecasts.push_back(std::move(f));
    }
    const auto sample_of = [&](long job) -> ForecastSample& {
      return forecasts[static_cast<size_t>(job) / steps.size()]
          .samples[static_cast<size_t>(job) % steps.size()];
    };
    StagedOutput output(output_.out);  // checks --out before anything is simulated
    output.refuse_replacing({args_.file, loaded.scenario.profile, loaded.scenario.workload.trajectories_path},
                            {"forecast.json", "forecast.csv", "forecast.svg"});
    {
      Progress progress(static_cast<long>(jobs.size()), !output_.quiet);
      const ChildOutcome failure = run_in_children(
          jobs, output_.jobs,
          [&](long job) {
            return timed([&]() {
              return simulate_sample(args_.file, base,
                                     forecasts[static_cast<size_t>(job) / steps.size()].policy,
                                     !schedule.empty(), sample_of(job).output_tokens_mean);
            });
          },
          [&](const ChildOutcome& c) {
            if (!c.ok) return;
            const auto [seconds, text] = untimed(c.text);
            const nlohmann::json j = nlohmann::json::parse(text);
            ForecastSample& sample = sample_of(c.job);
            sample.step_s = j["step_s"].get<double>();
            sample.usd_per_step = j["usd"].get<double>();
            sample.rollout_s = j["rollout"].get<double>();
            sample.train_s = j["train"].get<double>();
            progress.finished("step " + std::to_string(sample.step), seconds);
          });
      if (!failure.ok) rethrow_child_failure(failure, "a forecast step");
    }
    for (PolicyForecast& f : forecasts) f.totals = forecast_totals(f.samples, steps_, extras);
    const ForecastReportInput in{s.name, s.model.name, steps_, !schedule.empty(), extras, output_.out};
    output.write("forecast.json", forecast_json(forecasts, in));
    output.write("forecast.csv", forecast_csv(forecasts));
    output.write("forecast.svg", forecast_svg(forecasts, in));
    output.commit();
    // How far the validated cases nearest to the scenario put its steps (the first policy's mean step).
    const double mean_step_s = forecasts.front().totals.step_seconds / steps_;
    const nlohmann::json step{{"step_time_s", {{"mean", mean_step_s}, {"steady_mean", mean_step_s}}}};
    std::cout << forecast_text(forecasts, in)
              << validated_near_from_record(loaded.resolved_yaml, args_.as_arguments(), &step)
              << "outputs: " << output_.out << "/{forecast.json,forecast.csv,forecast.svg}\n";
    return kExitOk;
  }

 private:
  static double duration(const std::string& text, const std::string& flag) {
    std::string why;
    const std::optional<double> seconds = parse_quantity(text, Quantity::duration, &why);
    if (!seconds) throw InputError({flag, 0, 0}, "expected " + why + ", found '" + text + "'");
    return *seconds;
  }

  ScenarioArgs args_;
  int steps_ = 500;
  int samples_ = 8;
  std::string policies_;
  int eval_every_ = 0;
  std::string eval_time_ = "0s";
  int checkpoint_every_ = 0;
  std::string checkpoint_time_ = "0s";
  ForkedOutputArgs output_{2, "out/forecast"};
};

}  // namespace
RLSIM_REGISTER_COMMAND(ForecastCommand, "forecast", 26);
}  // namespace rlsim
