// `rlsim compare S.yaml --policies a,b,… [--out DIR]`: the same scenario, workload and seed under
// several policies, one forked process each (SimGrid allows one engine per process). Every policy
// runs on the scenario's cluster as it is: `colocated` pools both pools when they hold the same
// card, `labels` tags the training pool {train, rollout} unless the scenario has a `labels:`
// section; a policy that cannot run the scenario is listed as skipped with its reason. Prints a
// table ranked by --objective (steady-state step time by default) with the winner, its margin and
// the price it pays, then the validated cases nearest to the scenario, and writes DIR/compare.csv,
// DIR/compare.svg and each policy's run outputs in DIR/<policy>/.
#include <algorithm>
#include <iostream>
#include <optional>
#include <sstream>

#include "sim/engine/simulation.h"
#include "sim/platform/topology.h"
#include "sim/process/child_pool.h"
#include "sim/scenario/plugins.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/kinds/rl_sweep_plot.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/compare_ranking.h"
#include "tools/report/compare_report.h"
#include "tools/report/html_report.h"
#include "tools/report/output_dir.h"
#include "tools/report/progress.h"
#include "tools/report/run_report.h"
#include "tools/validation/validation_record.h"

namespace rlsim {
namespace {

class CompareCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub =
        root.add_subcommand("compare", "Run one scenario under several policies and compare them");
    args_.add_to(sub);
    sub->add_option("--policies", policies_, "Comma-separated policies to compare")->capture_default_str();
    std::string objectives;
    for (const auto& o : compare_objectives()) objectives += (objectives.empty() ? "" : "|") + o.name;
    sub->add_option("--objective", objective_, "What ranks the policies: " + objectives)
        ->capture_default_str();
    output_.add_to(sub, "Policies");
    sub->footer(
        "Same workload and seed under each policy. colocated pools both pools when they hold the same\n"
        "card; labels tags the training pool {train, rollout} unless the scenario has 'labels:'. A\n"
        "policy that cannot run the scenario is listed as skipped, with the reason.\n"
        "Rows are ranked by --objective; the winner line gives its margin over the runner-up and the\n"
        "price it pays (staleness, TPOT), and each row's advice is checked against what was measured.\n"
        "Writes DIR/compare.csv (one row per policy, best first), DIR/compare.svg (GPU time per step by\n"
        "state), DIR/report.html (one page: ranking, chart, links) and\n"
        "DIR/<policy>/{metrics.json,trace.json,resolved.yaml,report.html}.\n\nExamples:\n"
        "  rlsim compare scenarios/label-scheduling.yaml --out out/labels\n"
        "  rlsim compare scenarios/label-scheduling.yaml --objective usd_per_step --out out/labels-cost\n"
        "  rlsim compare scenarios/faults.yaml --policies colocated,disaggregated --out out/faults");
    return sub;
  }

  int run() override {
    require_policies_to_compare();
    const std::vector<std::string> policies = comma_separated(policies_);
    for (size_t i = 0; i < policies.size(); ++i) {
      if (std::find(policies.begin(), policies.begin() + static_cast<std::ptrdiff_t>(i), policies[i]) !=
          policies.begin() + static_cast<std::ptrdiff_t>(i))
        throw InputError({"--policies", 0, 0}, "policy '" + policies[i] + "' is listed twice");
    }
    if (policies.empty()) throw InputError({"--policies", 0, 0}, "no policy named in --policies");
    for (const auto& policy : policies) PolicyRegistry::instance().at(policy, {"--policies", 0, 0}, "policy");
    const std::optional<CompareObjective> objective = find_compare_objective(objective_);
    if (!objective) {
      std::string known;
      for (const auto& o : compare_objectives()) known += (known.empty() ? "" : ", ") + o.name;
      throw InputError({"--objective", 0, 0}, "expected one of " + known + ", found '" + objective_ + "'");
    }
    // Check everything before simulating anything: bad input writes nothing.
    std::vector<ComparedPolicy> rows;
    std::vector<LoadOptions> options;
    std::string scenario_name, preference, setup, resolved;
    std::vector<std::string> inputs{args_.file};  // what the runs read: none may be replaced
    for (const auto& policy : policies) {
      LoadOptions o = args_.load_options();
      o.policy = policy;
      LoadedScenario loaded = load_scenario(args_.file, o);
      inputs.push_back(loaded.scenario.profile);
      inputs.push_back(loaded.scenario.workload.trajectories_path);
      Topology topology(loaded.scenario.cluster);
      scenario_name = loaded.scenario.name;
      // The validated cases nearest to the scenario: the policies share its model and cards.
      if (resolved.empty()) resolved = loaded.resolved_yaml;
      const SweptSetup swept = swept_setup_of(loaded.scenario.model.name, loaded.scenario.cluster);
      setup = swept.model + ", " + swept.cards;
      preference = card_preference_note(loaded.scenario);
      ComparedPolicy row{policy, nullptr, ""};
      try {
        check_policy(loaded.scenario);
      } catch (const InputError& e) {
        row.skipped = e.message();
      }
      rows.push_back(row);
      options.push_back(o);
    }

    std::vector<long> jobs;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].skipped.empty()) jobs.push_back(static_cast<long>(i));
    }
    const std::filesystem::path out(output_.out);
    StagedOutput output(out);  // checks --out before anything is simulated
    std::vector<std::string> written{"compare.csv", "compare.svg", "report.html"};
    for (const auto& policy : policies) written.push_back(policy);  // each policy's own run
    output.refuse_replacing(inputs, written);
    auto progress = std::make_optional<Progress>(static_cast<long>(jobs.size()), !output_.quiet);
    const ChildOutcome failure = run_in_children(
        jobs, output_.jobs,
        [&](long job) {
          return timed([&]() {
            const auto i = static_cast<size_t>(job);
            LoadedScenario loaded = load_scenario(args_.file, options[i]);
            SimulationResult result = simulate(loaded.scenario);
            const nlohmann::json metrics = metrics_json(loaded.scenario, result.metrics);
            // Into the compare's own staging folder: committed with it, or not at all.
            const std::string folder = rows[i].policy + "/";
            output.write(folder + "metrics.json", metrics.dump(2) + "\n");
            output.write_streamed(folder + "trace.json", [&](std::ostream& trace) {
              write_trace_json(trace, loaded.scenario, result.timeline, result.instance_load, TraceOptions{});
            });
            output.write(folder + "resolved.yaml", loaded.resolved_yaml);
            output.write(
                folder + "report.html",
                run_report_html(loaded.scenario, result.metrics, result.timeline,
                                summary_table(loaded.scenario, result.metrics), loaded.resolved_yaml));
            return metrics.dump();
          });
        },
        [&](const ChildOutcome& outcome) {
          if (!outcome.ok) return;
          const auto [seconds, text] = untimed(outcome.text);
          rows[static_cast<size_t>(outcome.job)].metrics = nlohmann::json::parse(text);
          progress->finished(rows[static_cast<size_t>(outcome.job)].policy, seconds);
        });
    progress.reset();  // ends the progress line on the terminal before the table
    if (!failure.ok)
      rethrow_child_failure(failure, "policy '" + rows[static_cast<size_t>(failure.job)].policy + "'");

    // The validated cases nearest to the scenario, and what the best row's figures would measure at
    // their errors.
    const std::vector<size_t> ranked = rank_rows(rows, *objective);
    const std::string trust = validated_near_from_record(
        resolved, args_.as_arguments(), ranked.empty() ? nullptr : &rows[ranked.front()].metrics);
    const std::string table = compare_table(scenario_name, rows, *objective) + preference + trust;
    const std::string svg = compare_svg(scenario_name, setup, rows, *objective);
    std::string runs;
    for (const auto& row : rows) {
      if (!row.metrics.is_null())
        runs += "<li><a href=\"" + row.policy + "/report.html\">" + row.policy + "</a></li>\n";
    }
    output.write("compare.csv", compare_csv(rows, *objective));
    output.write("compare.svg", svg);
    output.write("report.html", html_page("rlsim compare: " + scenario_name,
                                          {{"Ranking and advice", html_pre(table)},
                                           {"GPU time per step by state", svg},
                                           {"Each policy's run", "<ul>\n" + runs + "</ul>\n"}}));
    output.commit();
    std::cout << table;
    std::cout << "outputs: " << output_.out
              << "/{compare.csv,compare.svg,report.html,<policy>/metrics.json}\n";
    return kExitOk;
  }

 private:
  /// Only an RL scenario runs a policy: for another kind, an InputError naming the sweep that
  /// weighs its alternatives instead.
  void require_policies_to_compare() const {
    const std::unique_ptr<ScenarioKind> kind = scenario_kind_of(args_.file, args_.load_options());
    if (kind->name() == "rl") return;
    throw InputError({args_.file, 0, 0},
                     "rlsim compare ranks the policies of an RL scenario; this one is kind " + kind->name() +
                         ", which runs no policy: weigh its alternatives with a sweep over the field that "
                         "differs (rlsim sweep " +
                         args_.file + " --param FIELD=A,B,…), whose summary names the best point by " +
                         kind->default_sweep_objective() + " or by --objective");
  }

  ScenarioArgs args_;
  std::string policies_ = "colocated,disaggregated,overlap,streaming,labels";
  ForkedOutputArgs output_{1, "out/compare"};
  std::string objective_ = compare_objectives().front().name;
};

}  // namespace
RLSIM_REGISTER_COMMAND(CompareCommand, "compare", 25);
}  // namespace rlsim
