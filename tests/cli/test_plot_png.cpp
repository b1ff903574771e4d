// The plots a person opens (compare.svg, sweep.svg of each kind, plan front.svg, forecast.svg) render to PNG
// with librsvg's rsvg-convert, as a browser would draw them: well-formed SVG of the declared size, not a
// blank page. Skipped with a warning where rsvg-convert is not installed (Debian: apt-get install
// librsvg2-bin; CI installs it).
#include <catch2/catch.hpp>
#include <cstdlib>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
namespace fs = std::filesystem;

namespace {

/// Renders `svg` to a PNG beside it; its size in bytes (0 when rsvg-convert failed).
uintmax_t rendered_png_bytes(const fs::path& svg) {
  const fs::path png = fs::path(svg).replace_extension(".png");
  const std::string render = "rsvg-convert '" + svg.string() + "' -o '" + png.string() + "' 2>/dev/null";
  if (std::system(render.c_str()) != 0 || !fs::exists(png)) return 0;
  return fs::file_size(png);
}

}  // namespace

TEST_CASE("compare and two-axis sweep plots render to PNG") {
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0) {
    WARN("rsvg-convert not installed: plots not rendered (Debian: apt-get install librsvg2-bin)");
    return;
  }
  const fs::path dir = scratch_dir("plot-png");
  const std::string small = " --set workload.steps=2 --set workload.prompts_per_step=4";
  REQUIRE(run_rlsim("compare scenarios/quickstart.yaml --policies disaggregated,overlap" + small +
                    " --out '" + (dir / "compare").string() + "'")
              .exit_code == 0);
  REQUIRE(run_rlsim("sweep scenarios/quickstart.yaml --param cluster.pools.rollout.nodes=1,2 --param "
                    "rollout.max_batch=32,128 --jobs 2" +
                    small + " --out '" + (dir / "sweep").string() + "'")
              .exit_code == 0);
  REQUIRE(run_rlsim("sweep scenarios/afd-step3.yaml --param afd.batch=256,1024 --out '" +
                    (dir / "afd").string() + "'")
              .exit_code == 0);
  // A blank canvas of these sizes compresses to a few KB; axes, labels and series take more.
  CHECK(rendered_png_bytes(dir / "compare" / "compare.svg") > 10000);
  CHECK(rendered_png_bytes(dir / "sweep" / "sweep.svg") > 10000);
  CHECK(rendered_png_bytes(dir / "afd" / "sweep.svg") > 10000);
  // The x axis names the swept field with its unit, also when the pool is named rather than numbered.
  CHECK_THAT(slurp(dir / "sweep" / "sweep.svg"),
             Catch::Contains(">cluster.pools.rollout.nodes (nodes)</text>"));
  // A malformed SVG is refused, so the checks above can fail.
  std::ofstream(dir / "broken.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\"><g></svg>";
  CHECK(rendered_png_bytes(dir / "broken.svg") == 0);
}

TEST_CASE("every other plot kind renders to PNG, sweeps with invalid points among them") {
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0) {
    WARN("rsvg-convert not installed: plots not rendered (Debian: apt-get install librsvg2-bin)");
    return;
  }
  const fs::path dir = scratch_dir("plot-png-kinds");
  const auto ran = [&](const std::string& args) {
    const CliResult r = run_rlsim(args);
    INFO(args << "\n" << r.err);
    REQUIRE(r.exit_code == 0);
  };
  // RL and serving sweeps with a point refused (TP 3 does not divide the heads) and skipped.
  ran("sweep scenarios/quickstart.yaml --set workload.steps=2 --param rollout.tp=1,2,3 --skip-invalid "
      "--quiet --out '" +
      (dir / "rl").string() + "'");
  ran("sweep scenarios/serve-llama3-70b.yaml --set workload.requests=60 --param serve.tp=2,3 "
      "--param workload.concurrency=1,5 --skip-invalid --quiet --out '" +
      (dir / "serve").string() + "'");
  ran("plan scenarios/heterogeneous.yaml --gpus H800:16,H20:8 --rollout-tp 1,2 --train-tp 1 --quiet --out '" +
      (dir / "plan").string() + "'");
  ran("forecast scenarios/colocated-vs-disaggregated.yaml --steps 100 --samples 3 --policies "
      "colocated,disaggregated "
      "--quiet --out '" +
      (dir / "forecast").string() + "'");
  for (const fs::path& svg : {dir / "rl" / "sweep.svg", dir / "serve" / "sweep.svg",
                              dir / "plan" / "front.svg", dir / "forecast" / "forecast.svg"}) {
    INFO(svg.string());
    CHECK(rendered_png_bytes(svg) > 10000);
  }
  CHECK_THAT(slurp(dir / "rl" / "sweep.svg"), Catch::Contains("1 point not simulated"));
  CHECK_THAT(slurp(dir / "serve" / "sweep.svg"), Catch::Contains("not simulated"));
}
