// The shared scenario arguments (tools/cli/scenario_args.h) written back as a command line, as the
// commands a run suggests next quote them: plain words as they are, anything else single-quoted.
#include <catch2/catch.hpp>

#include "tools/cli/scenario_args.h"

using namespace rlsim;

TEST_CASE("scenario arguments are written back as one shell word each, quoted where needed") {
  ScenarioArgs args;
  args.file = "scenarios/quickstart.yaml";
  CHECK(args.as_arguments() == "scenarios/quickstart.yaml");
  args.sets = {"cluster.pools.rollout.gpu=H800", "workload.output_tokens={uniform: {min: 1, max: 2}}",
               "name=it's"};
  args.seed = 7;  // the seed does not change which cases are near
  CHECK(args.as_arguments() ==
        "scenarios/quickstart.yaml --set cluster.pools.rollout.gpu=H800 --set "
        "'workload.output_tokens={uniform: {min: 1, max: 2}}' --set 'name=it'\\''s'");
  args.file = "my runs/a.yaml";
  args.sets.clear();
  CHECK(args.as_arguments() == "'my runs/a.yaml'");
}
