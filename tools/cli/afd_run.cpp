// Running and validating AFD scenarios from the command line.
#include "tools/cli/afd_run.h"

#include <iostream>

#include "sim/afd/afd_simulation.h"
#include "sim/platform/topology.h"
#include "tools/report/afd_report.h"
#include "tools/report/output_dir.h"

namespace rlsim {

LoadOptions load_options(const ScenarioArgs& args) {
  LoadOptions options;
  options.overrides = args.sets;
  options.seed = args.seed;
  return options;
}

LoadedAfdScenario load_checked_afd(const ScenarioArgs& args) {
  LoadedAfdScenario loaded = load_afd_scenario(args.file, load_options(args));
  Topology topology(loaded.scenario.cluster, ServiceZones::optional);  // pools must reach each other
  return loaded;
}

int run_afd(const ScenarioArgs& args, const std::string& out, const std::vector<std::string>& logs) {
  const LoadedAfdScenario loaded = load_checked_afd(args);
  const AfdScenario& scenario = loaded.scenario;
  StagedOutput output(out);
  SimulationOptions options;
  for (const auto& log : logs) options.simgrid_args.push_back("--log=" + log);
  const AfdResult result = simulate_afd(scenario, options);
  output.write("metrics.json", afd_metrics_json(scenario, result.metrics).dump(2) + "\n");
  output.write("trace.json", afd_trace_json(scenario, result.timeline));
  output.write("resolved.yaml", loaded.resolved_yaml);
  output.commit();
  std::cout << afd_summary_table(scenario, result.metrics);
  std::cout << "outputs: " << out << "/{metrics.json,trace.json,resolved.yaml}\n";
  return 0;
}

int validate_afd(const ScenarioArgs& args) {
  const LoadedAfdScenario loaded = load_checked_afd(args);
  const AfdScenario& s = loaded.scenario;
  std::cout << args.file << ": ok (" << s.name << ": AFD, model " << s.model.name << ", "
            << s.afd.attention_gpus << " attention GPUs on " << s.afd.attention_pool << " + "
            << s.afd.ffn_gpus << " FFN GPUs on " << s.afd.ffn_pool << ", batch " << s.afd.batch << " in "
            << s.afd.micro_batches << " micro-batches)\n";
  return 0;
}

}  // namespace rlsim
