// `rlsim run` on AFD scenarios and `rlsim sweep` / `rlsim sweep-merge` end to end: the default
// batch sweep of afd-step3 (TPOT grows, throughput per GPU rises then flattens, the best batch meets
// the target), the knee moving with NIC bandwidth, resuming a killed sweep, shards merging to the
// same bytes as one run, and bad input failing before anything is written.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/cli/cli_support.h"
#include "tools/sweep/sweep_csv.h"

using namespace rlsim::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* const kStep3 = "scenarios/afd-step3.yaml";

/// Rows of a sweep CSV as column -> value maps, in file order.
std::vector<std::map<std::string, std::string>> read_rows(const fs::path& csv) {
  std::istringstream in(slurp(csv));
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& text) {
    std::vector<std::string> cells;
    std::stringstream stream(text);
    std::string cell;
    while (std::getline(stream, cell, ',')) cells.push_back(cell);
    return cells;
  };
  if (std::getline(in, line)) header = split(line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    std::map<std::string, std::string> row;
    for (size_t k = 0; k < cells.size() && k < header.size(); ++k) row[header[k]] = cells[k];
    rows.push_back(row);
  }
  return rows;
}

double number(const std::map<std::string, std::string>& row, const std::string& column) {
  return std::stod(row.at(column));
}

size_t line_count(const fs::path& file) {
  const std::string text = slurp(file);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// The batch the summary names as the knee of `series` (0 when it says there is none).
double knee_of(const std::string& out, const std::string& series) {
  std::smatch match;
  const std::regex pattern("\\[" + series + "\\] knee: transfer starts to dominate at batch ([0-9]+)");
  return std::regex_search(out, match, pattern) ? std::stod(match[1]) : 0.0;
}

}  // namespace

TEST_CASE("run on an AFD scenario writes AFD metrics, a per-GPU trace and the resolved scenario") {
  const auto out = scratch_dir("afd-run") / "out";
  CliResult r = run_rlsim(std::string("run ") + kStep3 + " --set afd.batch=512 --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("TPOT") && Catch::Contains("tokens/s per GPU"));
  const json m = json::parse(slurp(out / "metrics.json"));
  CHECK(m["kind"] == "afd");
  CHECK(m["tpot_s"].get<double>() > 0.0);
  for (const char* key : {"attention", "transfer", "ffn"}) CHECK(m["per_layer_s"][key].get<double>() > 0.0);
  for (const char* key :
       {"throughput", "ffn_utilization", "link_utilization", "cost", "analytic", "memory_fraction"}) {
    CHECK(m.contains(key));
  }
  const json trace = json::parse(slurp(out / "trace.json"));
  std::set<std::string> spans;
  int threads = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X") spans.insert(event["name"].get<std::string>());
    if (event["ph"] == "M" && event["name"] == "thread_name") ++threads;
  }
  CHECK(spans == std::set<std::string>{"attention", "ffn", "dispatch", "combine"});
  CHECK(threads == 64);  // 32 GPUs, a compute and a transfer track each
  CHECK_THAT(slurp(out / "resolved.yaml"), Catch::Contains("kind: afd") && Catch::Contains("batch: 512"));

  CHECK(run_rlsim(std::string("validate ") + kStep3).exit_code == 0);
  const auto bad = scratch_dir("afd-run-bad") / "out";
  CliResult invalid =
      run_rlsim(std::string("run ") + kStep3 + " --set afd.micro_batch=2 --out '" + bad.string() + "'");
  CHECK(invalid.exit_code == 2);
  CHECK_THAT(invalid.err, Catch::Contains("--set afd.micro_batch=2") && Catch::Contains("micro_batches"));
  CHECK_FALSE(fs::exists(bad));
}

TEST_CASE(
    "afd-step3's default sweep: TPOT grows, throughput per GPU rises then flattens, best batch meets "
    "target") {
  const auto dir = scratch_dir("afd-default") / "sweep";
  CliResult r = run_rlsim(std::string("sweep ") + kStep3 + " --jobs 2 --out '" + dir.string() + "'");
  REQUIRE(r.exit_code == 0);
  const auto rows = read_rows(dir / "sweep.csv");
  REQUIRE(rows.size() >= 8);
  for (const char* column :
       {"batch", "tpot_s", "tokens_per_s_per_gpu", "attention_s_per_layer", "transfer_s_per_layer",
        "ffn_s_per_layer", "ffn_utilization", "usd_per_1m_tokens"}) {
    CHECK(rows.front().count(column) == 1);
  }
  for (size_t k = 1; k < rows.size(); ++k) {
    CHECK(number(rows[k], "batch") > number(rows[k - 1], "batch"));
    CHECK(number(rows[k], "tpot_s") > number(rows[k - 1], "tpot_s"));
    CHECK(number(rows[k], "tokens_per_s_per_gpu") > number(rows[k - 1], "tokens_per_s_per_gpu"));
  }
  // Rises then flattens: the first doubling of the batch nearly doubles throughput, the last steps
  // add a few percent.
  const size_t n = rows.size();
  CHECK(number(rows[1], "tokens_per_s_per_gpu") > 1.6 * number(rows[0], "tokens_per_s_per_gpu"));
  CHECK(number(rows[n - 1], "tokens_per_s_per_gpu") < 1.1 * number(rows[n - 2], "tokens_per_s_per_gpu"));
  std::smatch match;
  REQUIRE(std::regex_search(
      r.out, match, std::regex("best batch under the 50 ms TPOT target: ([0-9]+) \\(TPOT ([0-9.]+) ms")));
  CHECK(std::stod(match[2]) <= 50.0);
  bool best_is_last_meeting = false;
  for (size_t k = 0; k < n; ++k) {
    if (number(rows[k], "batch") == std::stod(match[1])) {
      CHECK(number(rows[k], "meets_target") == 1.0);
      best_is_last_meeting = k + 1 == n || number(rows[k + 1], "meets_target") == 0.0;
    }
  }
  CHECK(best_is_last_meeting);
  CHECK_THAT(r.out, Catch::Contains("knee:"));
  CHECK_THAT(slurp(dir / "sweep.svg"), Catch::StartsWith("<svg") && Catch::Contains("target TPOT 50 ms"));
}

TEST_CASE("halving NIC bandwidth moves the knee to a smaller batch") {
  // With the experts on H800 (Step-3's published deployment) the network, not the FFN, limits.
  const auto dir = scratch_dir("afd-knee") / "sweep";
  CliResult r = run_rlsim(std::string("sweep ") + kStep3 +
                          " --set cluster.pools.ffn.gpu=H800 --param cluster.nic.bandwidth=200Gbps,100Gbps"
                          " --param afd.batch=1024,2048,3072,4096,6144,8192 --skip-invalid --jobs 2 --out '" +
                          dir.string() + "'");
  REQUIRE(r.exit_code == 0);
  const double full = knee_of(r.out, "cluster.nic.bandwidth=200Gbps");
  const double half = knee_of(r.out, "cluster.nic.bandwidth=100Gbps");
  INFO(r.out);
  REQUIRE(full > 0.0);
  REQUIRE(half > 0.0);
  CHECK(half < full);
}

TEST_CASE("a killed sweep resumes without redoing finished points and ends as an uninterrupted one") {
  const auto base = scratch_dir("afd-resume");
  const std::string grid = " --param afd.batch=128,256,512,768,1024,1536,2048,3072 --jobs 1 --out ";
  const fs::path killed = base / "killed", clean = base / "clean";
  const std::string command = std::string("cd '") + RLSIM_TEST_SOURCE_DIR + "' && exec '" +
                              RLSIM_TEST_BINARY + "' sweep " + kStep3 + grid + "'" + killed.string() +
                              "' >/dev/null 2>&1";
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::setpgid(0, 0);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  ::setpgid(pid, pid);
  // Generous: a point takes a fraction of a second, but tens of seconds in the sanitizer build.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(600);
  while (std::chrono::steady_clock::now() < deadline &&
         (!fs::exists(killed / "sweep.csv") || line_count(killed / "sweep.csv") < 3)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(-pid, SIGKILL);  // the sweep and the point it is running
  int status = 0;
  ::waitpid(pid, &status, 0);
  const size_t finished = line_count(killed / "sweep.csv") - 1;
  REQUIRE(finished >= 2);
  REQUIRE(finished < 8);

  CliResult resumed = run_rlsim(std::string("sweep ") + kStep3 + grid + "'" + killed.string() + "'");
  REQUIRE(resumed.exit_code == 0);
  CHECK_THAT(resumed.out, Catch::Contains(std::to_string(finished) + " already done, running " +
                                          std::to_string(8 - finished)));
  REQUIRE(run_rlsim(std::string("sweep ") + kStep3 + grid + "'" + clean.string() + "'").exit_code == 0);
  CHECK(slurp(killed / "sweep.csv") == slurp(clean / "sweep.csv"));
  // Running a finished sweep again redoes nothing.
  CHECK_THAT(run_rlsim(std::string("sweep ") + kStep3 + grid + "'" + clean.string() + "'").out,
             Catch::Contains("8 already done, running 0"));
}

TEST_CASE("shards merge into the same CSV as an unsharded sweep") {
  const auto base = scratch_dir("afd-shards");
  const std::string grid =
      std::string("sweep ") + kStep3 + " --param afd.batch=256,1024,2048 --param afd.micro_batches=2,3";
  REQUIRE(run_rlsim(grid + " --jobs 2 --out '" + (base / "whole").string() + "'").exit_code == 0);
  // Shards written into one shared folder...
  for (int i = 1; i <= 3; ++i) {
    CliResult shard =
        run_rlsim(grid + " --shard " + std::to_string(i) + "/3 --out '" + (base / "shared").string() + "'");
    REQUIRE(shard.exit_code == 0);
    CHECK(fs::exists(base / "shared" / ("sweep-shard-" + std::to_string(i) + "-of-3.csv")));
  }
  REQUIRE(run_rlsim("sweep-merge '" + (base / "shared").string() + "'").exit_code == 0);
  CHECK(slurp(base / "shared" / "sweep.csv") == slurp(base / "whole" / "sweep.csv"));
  // ...or one folder per shard, merged elsewhere; a missing shard is reported.
  for (int i = 1; i <= 2; ++i) {
    REQUIRE(run_rlsim(grid + " --shard " + std::to_string(i) + "/2 --out '" +
                      (base / ("s" + std::to_string(i))).string() + "'")
                .exit_code == 0);
  }
  CliResult partial =
      run_rlsim("sweep-merge '" + (base / "s1").string() + "' --out '" + (base / "m").string() + "'");
  CHECK(partial.exit_code == 2);
  CHECK_THAT(partial.err, Catch::Contains("3 of 6 points are missing (1, 3, 5)"));
  REQUIRE(run_rlsim("sweep-merge '" + (base / "s1").string() + "' '" + (base / "s2").string() + "' --out '" +
                    (base / "m").string() + "'")
              .exit_code == 0);
  CHECK(slurp(base / "m" / "sweep.csv") == slurp(base / "whole" / "sweep.csv"));
}

TEST_CASE("a serving sweep's shards merge into the same CSV, and it names where the KV cache binds") {
  const auto base = scratch_dir("serve-shards");
  const std::string grid =
      "sweep scenarios/serve-llama3-70b.yaml --param workload.concurrency=1,25,100 --set "
      "workload.requests=200";
  const CliResult whole = run_rlsim(grid + " --out '" + (base / "whole").string() + "'");
  REQUIRE(whole.exit_code == 0);
  for (int i = 1; i <= 2; ++i) {
    REQUIRE(
        run_rlsim(grid + " --shard " + std::to_string(i) + "/2 --out '" + (base / "shared").string() + "'")
            .exit_code == 0);
  }
  REQUIRE(run_rlsim("sweep-merge '" + (base / "shared").string() + "'").exit_code == 0);
  CHECK(slurp(base / "shared" / "sweep.csv") == slurp(base / "whole" / "sweep.csv"));
  // 92 requests of 5,500 tokens fit the instance's KV cache: 25 clients queue behind prefill work,
  // 100 behind the cache; one client hardly queues.
  CHECK_THAT(whole.out,
             Catch::Contains("queued behind (where queueing took a tenth of TTFT or more; rlsim run "
                             "prints what helps): point 1 (workload.concurrency=25) prefill_work, "
                             "point 2 (workload.concurrency=100) kv_cache\n"));
}

TEST_CASE("joint design sweep with a Pareto summary") {
  const auto dir = scratch_dir("afd-pareto") / "sweep";
  CliResult r = run_rlsim(std::string("sweep ") + kStep3 +
                          " --param cluster.pools.ffn.gpu=H20,H800 --param model_edits.routed_experts=48,96"
                          " --param afd.batch=1024,3072 --pareto --jobs 2 --out '" +
                          dir.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("Pareto frontier"));
  // The FFN card axis makes two setups: the validated cases nearest to each, with the command that
  // runs them for its first point.
  CHECK_THAT(
      r.out,
      Catch::Contains("points with model step3 on H20, H800 (4 of 8):\nvalidated near this setup: ") &&
          Catch::Contains("points with model step3 on H800 (4 of 8):\nvalidated near this setup: ") &&
          Catch::Contains(" --set cluster.pools.ffn.gpu=H800 --set model_edits.routed_experts=48 --set "
                          "afd.batch=1024\n"));
  auto frontier = read_rows(dir / "pareto.csv");
  REQUIRE_FALSE(frontier.empty());
  std::sort(frontier.begin(), frontier.end(),
            [](const auto& a, const auto& b) { return number(a, "tpot_s") < number(b, "tpot_s"); });
  for (size_t k = 1; k < frontier.size(); ++k) {  // slower points on the frontier are cheaper
    CHECK(number(frontier[k], "tpot_s") >= number(frontier[k - 1], "tpot_s"));
    CHECK(number(frontier[k], "usd_per_1m_tokens") < number(frontier[k - 1], "usd_per_1m_tokens"));
  }
}

TEST_CASE("bad sweep input fails with exit code 2 before anything is written") {
  const auto base = scratch_dir("afd-sweep-bad");
  const std::string out = " --out '" + (base / "out").string() + "'";
  CliResult zero = run_rlsim(std::string("sweep ") + kStep3 + " --param afd.batch=0,64" + out);
  CHECK(zero.exit_code == 2);
  CHECK_THAT(zero.err, Catch::Contains("--param afd.batch=0"));
  CliResult typo = run_rlsim(std::string("sweep ") + kStep3 + " --param afd.bach=64" + out);
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("did you mean 'batch'"));
  CHECK(run_rlsim(std::string("sweep ") + kStep3 + " --param afd.batch=1:0:1" + out).exit_code == 2);
  CHECK(run_rlsim(std::string("sweep ") + kStep3 + " --shard 4/3" + out).exit_code == 2);
  CliResult nothing = run_rlsim("sweep scenarios/quickstart.yaml" + out);
  CHECK(nothing.exit_code == 2);
  CHECK_THAT(nothing.err, Catch::Contains("nothing to sweep"));
  CHECK_FALSE(fs::exists(base / "out"));
  // A folder holding another sweep is not overwritten.
  REQUIRE(run_rlsim(std::string("sweep ") + kStep3 + " --param afd.batch=64" + out).exit_code == 0);
  CliResult other = run_rlsim(std::string("sweep ") + kStep3 + " --param afd.batch=128" + out);
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.err, Catch::Contains("holds another sweep"));
}

TEST_CASE("sweeps over RL scenarios record step time, throughput, bubbles and cost") {
  const auto dir = scratch_dir("rl-sweep") / "sweep";
  CliResult r = run_rlsim(
      "sweep scenarios/quickstart.yaml --set workload.steps=1 --param rollout.max_batch=32,128 --jobs 2 "
      "--out '" +
      dir.string() + "'");
  REQUIRE(r.exit_code == 0);
  const auto rows = read_rows(dir / "sweep.csv");
  REQUIRE(rows.size() == 2);
  for (const char* column :
       {"rollout.max_batch", "step_time_s", "samples_per_s", "bubble_fraction", "usd_per_step"}) {
    CHECK(rows.front().count(column) == 1);
  }
  CHECK(number(rows[0], "step_time_s") > 0.0);
  // One step is no sample to take a p99 of: the cell is empty, not the maximum under another name.
  CHECK(rows[0].at("step_time_p99_s").empty());
}

TEST_CASE("a sweep folder holding rows but no sweep.json is refused, not resumed under new settings") {
  const auto dir = scratch_dir("sweep-no-manifest");
  std::ofstream(dir / "sweep.csv") << "point,rollout.max_batch,step_time_s\n0,32,28.7\n";
  const auto r = run_rlsim(
      "sweep scenarios/quickstart.yaml --set workload.steps=2 --param rollout.max_batch=32,64 --out '" +
      dir.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no sweep.json"));
  CHECK_FALSE(std::filesystem::exists(dir / "sweep.json"));
}

TEST_CASE("sweep with --skip-invalid records a point its simulation refuses as a row that says why") {
  const auto dir = scratch_dir("sweep-refused-while-running");
  const auto r = run_rlsim(
      "sweep scenarios/serve-llama3-70b.yaml --unset workload.concurrency --set workload.requests=6000 "
      "--param workload.rate=1/s,100000/s --skip-invalid --out '" +
      dir.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("point 1: refused while running"));
  const rlsim::SweepTable table = rlsim::read_sweep_csv(dir / "sweep.csv");
  REQUIRE(table.rows.size() == 2);
  CHECK_THAT(table.rows.at(1).back(), Catch::Contains("the arrivals outpace the deployment"));
  CHECK(table.rows.at(0).back().empty());
  // Without --skip-invalid the same refusal stops the sweep (exit 2).
  CHECK(run_rlsim(
            "sweep scenarios/serve-llama3-70b.yaml --unset workload.concurrency --set workload.requests=6000 "
            "--param workload.rate=1/s,100000/s --out '" +
            (dir / "strict").string() + "'")
            .exit_code == 2);
}
