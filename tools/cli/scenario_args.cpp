// Shared scenario arguments.
#include "tools/cli/scenario_args.h"

namespace rlsim {

void ScenarioArgs::add_to(CLI::App* app) {
  app->add_option("scenario", file, "Scenario YAML file")->required();
  app->add_option("--set", sets,
                  "Override a field: path.to.field=value (list items by index or name, e.g. "
                  "cluster.pools.rollout.nodes=4); repeatable");
  app->add_option("--seed", seed, "Random seed (overrides the scenario's 'seed')");
}

LoadOptions ScenarioArgs::load_options() const {
  LoadOptions options;
  options.overrides = sets;
  options.seed = seed;
  return options;
}

}  // namespace rlsim
