// A sweep folder belongs to the inputs it was started from: resuming after the scenario's content
// changed is refused, and rows that are no point of the grid are refused, not merged.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/cli/cli_support.h"

namespace fs = std::filesystem;
using namespace rlsim::test;

TEST_CASE("resuming a sweep whose scenario changed since is refused", "[cli][sweep]") {
  const fs::path dir = scratch_dir("sweep-inputs");
  fs::copy_file(fs::path(RLSIM_TEST_SOURCE_DIR) / "scenarios" / "quickstart.yaml", dir / "s.yaml");
  const std::string sweep = "sweep '" + (dir / "s.yaml").string() + "' --param workload.steps=1,2 --out '" +
                            (dir / "out").string() + "'";
  REQUIRE(run_rlsim(sweep).exit_code == 0);
  CHECK(run_rlsim(sweep).exit_code == 0);  // the same inputs: resumes, nothing to run
  std::ofstream(dir / "s.yaml", std::ios::app) << "# edited after the sweep started\n";
  const CliResult changed = run_rlsim(sweep);
  CHECK(changed.exit_code == 2);
  CHECK_THAT(changed.err, Catch::Contains("started from other inputs"));
}

TEST_CASE("a sweep row that is no point of the grid is refused on resume and merge", "[cli][sweep]") {
  const fs::path dir = scratch_dir("sweep-rows");
  const std::string out = (dir / "out").string();
  REQUIRE(
      run_rlsim("sweep scenarios/quickstart.yaml --param workload.steps=1,2 --out '" + out + "'").exit_code ==
      0);
  // A row numbered past the grid, as a file from another sweep would hold.
  const std::string csv = slurp(dir / "out" / "sweep.csv");
  const std::string first_row =
      csv.substr(csv.find('\n') + 1, csv.find('\n', csv.find('\n') + 1) - csv.find('\n'));
  std::ofstream(dir / "out" / "sweep.csv", std::ios::app) << "7" << first_row.substr(first_row.find(','));
  const CliResult merged = run_rlsim("sweep-merge '" + out + "'");
  CHECK(merged.exit_code == 2);
  CHECK_THAT(merged.err, Catch::Contains("not a point of this sweep's grid"));
  const CliResult resumed =
      run_rlsim("sweep scenarios/quickstart.yaml --param workload.steps=1,2 --out '" + out + "'");
  CHECK(resumed.exit_code == 2);
  CHECK_THAT(resumed.err, Catch::Contains("not a point of this sweep's grid"));
}

TEST_CASE("a sweep row whose figure is not a finite number is refused on resume and merge", "[cli][sweep]") {
  const fs::path dir = scratch_dir("sweep-nan");
  const std::string out = (dir / "out").string();
  REQUIRE(
      run_rlsim("sweep scenarios/quickstart.yaml --param workload.steps=1,2 --out '" + out + "'").exit_code ==
      0);
  // The first figure of point 1's row (step_time_s, after "point,workload.steps") made nan.
  std::string csv = slurp(dir / "out" / "sweep.csv");
  const size_t row = csv.find("\n1,2,");
  REQUIRE(row != std::string::npos);
  const size_t cell = row + std::string("\n1,2,").size();
  csv.replace(cell, csv.find(',', cell) - cell, "nan");
  std::ofstream(dir / "out" / "sweep.csv", std::ios::trunc) << csv;
  const CliResult merged = run_rlsim("sweep-merge '" + out + "'");
  CHECK(merged.exit_code == 2);
  CHECK_THAT(merged.err,
             Catch::Contains("row of point 1: 'step_time_s' holds 'nan', expected a finite number"));
  const CliResult resumed =
      run_rlsim("sweep scenarios/quickstart.yaml --param workload.steps=1,2 --out '" + out + "'");
  CHECK(resumed.exit_code == 2);
  CHECK_THAT(resumed.err, Catch::Contains("expected a finite number or nothing"));
}
