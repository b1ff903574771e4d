// The output folder: checked before anything runs, holding only the last run's rlsim files, never
// touching a user's own files, and no staging left behind by a killed run.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "models/input_error.h"
#include "tools/report/output_dir.h"

namespace fs = std::filesystem;
using rlsim::StagedOutput;

namespace {

fs::path fresh_folder(const std::string& name) {
  const fs::path folder =
      fs::temp_directory_path() / ("rlsim-output-dir-" + std::to_string(::getpid())) / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

void write_run(const fs::path& target, const std::vector<std::string>& files) {
  StagedOutput output(target);
  for (const auto& file : files) output.write(file, "content of " + file);
  output.commit();
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("an --out that is a file is refused before anything is written") {
  const fs::path root = fresh_folder("file");
  std::ofstream(root / "taken") << "not a folder";
  try {
    StagedOutput output(root / "taken");
    FAIL("expected an input error");
  } catch (const rlsim::InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("--out") && Catch::Contains("is not a folder"));
  }
  CHECK(read(root / "taken") == "not a folder");
  CHECK(std::distance(fs::directory_iterator(root), {}) == 1);  // no staging folder left
}

TEST_CASE("a rerun removes the outputs of the earlier run that it did not write, and nothing else") {
  const fs::path out = fresh_folder("rerun") / "out";
  write_run(out, {"metrics.json", "trajectories.jsonl", "labels/metrics.json"});
  std::ofstream(out / "notes.txt") << "mine";
  write_run(out, {"metrics.json", "colocated/metrics.json"});
  CHECK(fs::exists(out / "metrics.json"));
  CHECK(fs::exists(out / "colocated" / "metrics.json"));
  CHECK_FALSE(fs::exists(out / "trajectories.jsonl"));  // stale: the earlier run's ledger
  CHECK_FALSE(fs::exists(out / "labels"));              // stale: a policy not in this compare
  CHECK(read(out / "notes.txt") == "mine");             // never written by rlsim: left alone
}

TEST_CASE("a replaced subfolder holds only the new run's files") {
  const fs::path out = fresh_folder("subfolder") / "out";
  write_run(out, {"p/metrics.json", "p/trace.json"});
  write_run(out, {"p/metrics.json"});
  CHECK(fs::exists(out / "p" / "metrics.json"));
  CHECK_FALSE(fs::exists(out / "p" / "trace.json"));
}

TEST_CASE("a manifest cannot make rlsim remove anything outside its folder") {
  const fs::path root = fresh_folder("escape");
  std::ofstream(root / "precious") << "keep";
  fs::create_directories(root / "out");
  std::ofstream(root / "out" / StagedOutput::kManifest) << "../precious\n..\n";
  write_run(root / "out", {"metrics.json"});
  CHECK(read(root / "precious") == "keep");
}

TEST_CASE("an uncommitted output leaves nothing and a dead process's staging folder is cleaned up") {
  const fs::path root = fresh_folder("staging");
  {
    StagedOutput output(root / "out");
    output.write("metrics.json", "{}");
  }
  CHECK(std::distance(fs::directory_iterator(root), {}) == 0);
  // PID 2^22 + 1 is above Linux's largest PID: no process has it.
  fs::create_directories(root / ".out.partial-4194305");
  write_run(root / "out", {"metrics.json"});
  CHECK_FALSE(fs::exists(root / ".out.partial-4194305"));
  CHECK(fs::exists(root / "out" / "metrics.json"));
}

TEST_CASE("an input in the output folder under a name the run replaces is refused before simulating") {
  const fs::path root = fresh_folder("inputs");
  std::ofstream(root / "requests.csv") << "arrival_s,prompt_tokens,output_tokens\n0,10,10\n";
  std::ofstream(root / "scenario.yaml") << "model: qwen3-8b\n";
  StagedOutput output(root);
  const std::vector<std::string> written{"metrics.json", "requests.csv"};
  // The scenario beside the outputs is fine: the run does not write scenario.yaml.
  CHECK_NOTHROW(output.refuse_replacing({(root / "scenario.yaml").string()}, written));
  CHECK_NOTHROW(output.refuse_replacing({"", (root.parent_path() / "elsewhere.csv").string()}, written));
  try {
    output.refuse_replacing({(root / "scenario.yaml").string(), (root / "." / "requests.csv").string()},
                            written);
    FAIL("expected an input error");
  } catch (const rlsim::InputError& e) {
    CHECK_THAT(e.what(),
               Catch::Contains("is an input of this run") && Catch::Contains("replaces 'requests.csv'"));
  }
  // A file an earlier run wrote (listed in the folder's manifest) is replaced or removed by the
  // next commit: an input under its name is refused too, also inside a subfolder.
  write_run(root / "earlier", {"calls/turns.jsonl"});
  StagedOutput again(root / "earlier");
  CHECK_THROWS_AS(again.refuse_replacing({(root / "earlier" / "calls" / "turns.jsonl").string()}, written),
                  rlsim::InputError);
}
