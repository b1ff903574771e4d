// `kind: serve` through the CLI: run writes metrics.json with its `serving` object, requests.csv,
// a trace with the instances' counter tracks and resolved.yaml, and prints the summary; the same
// scenario and seed give the same bytes; validate describes it; a sweep over the closed loop's
// concurrency gets the serving columns; a bad request-trace row fails with its FILE:LINE:COL, exit
// 2, nothing written; so does a workload whose prompts are longer than the scheduler accepts. With
// AFD the per-GPU throughput counts the FFN pool too. `--unset` swaps the closed loop for Poisson
// arrivals in a run and a sweep. The summary and metrics.json name the engine, its batching, the
// precisions and what priced the ops.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"
#include "tools/sweep/sweep_csv.h"

using namespace rlsim::test;
using nlohmann::json;

namespace {

const std::string kServe = "scenarios/serve-llama3-70b.yaml";

std::string run_small(const std::filesystem::path& out, const std::string& extra = "") {
  return "run " + kServe + " --set workload.requests=60 " + extra + " --out '" + out.string() + "'";
}

/// One H100 serving Llama-3-8B the rows of requests.csv beside the scenario.
const char* const kTracedServe =
    "kind: serve\nmodel: llama-3-8b\ncluster: {pools: [{name: s, gpu: H100, "
    "nodes: 1, gpus_per_node: 1}], links: [{between: [agents, s], bandwidth: 100Gbps}, {between: "
    "[dataplane, s], bandwidth: 100Gbps}]}\nworkload: {trace: requests.csv}\n"
    "serve: {pool: s}\n";

}  // namespace

TEST_CASE("serve: run writes the serving metrics, the requests, a trace with counters and the summary") {
  const auto out = scratch_dir("serve-run") / "out";
  const CliResult r = run_rlsim(run_small(out));
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("35 requests (25 warm-up excluded)") && Catch::Contains("TTFT") &&
                        Catch::Contains("goodput (TTFT <= 1000 ms, TPOT <= 50 ms)"));
  const json m = json::parse(slurp(out / "metrics.json"));
  const json& s = m["serving"];
  CHECK(s["requests"] == 60);
  CHECK(s["warmup_excluded"] == 25);
  CHECK(s["measured"] == 35);
  for (const char* latency : {"ttft_s", "tpot_s", "e2e_s", "queue_s"}) {
    CHECK(s[latency]["mean"].is_number());
    CHECK(s[latency]["p50"].is_number());
    CHECK(s[latency]["p90"].is_number());
    CHECK(s[latency]["p99"].is_null());  // 35 samples: none above the 99th percentile
  }
  CHECK(s["ttft_s"]["p50"].get<double>() <= s["e2e_s"]["p50"].get<double>());
  // Seconds, as every time in metrics.json: a token of a 70B model takes milliseconds.
  CHECK(s["tpot_s"]["mean"].get<double>() < 0.2);
  CHECK(m["workload"]["api_server_s"].get<double>() < 0.1);
  CHECK(s["output_tokens_per_s"].get<double>() == Approx(500.0 * s["requests_per_s"].get<double>()));
  // Per GPU, as TensorRT-LLM's and most published tables state throughput: over the pool's GPUs.
  CHECK(s["output_tokens_per_s_per_gpu"].get<double>() ==
        Approx(s["output_tokens_per_s"].get<double>() / m["deployment"]["gpus"].get<double>()));
  CHECK(m["deployment"]["gpus"] == 2);
  CHECK(s["goodput"]["fraction"].get<double>() >= 0.0);
  CHECK(s["goodput"]["slo"]["tpot_s"] == 0.05);
  CHECK(s["batch_occupancy"].get<double>() > 0.0);
  CHECK(s["batch_occupancy"].get<double>() <= 25.0 / 256.0 + 1e-12);  // 25 clients, max_batch 256
  CHECK(s["kv_use"]["max"].get<double>() <= 1.0);
  CHECK(m["deployment"]["instances"] == 1);

  const std::string requests = slurp(out / "requests.csv");
  CHECK(std::count(requests.begin(), requests.end(), '\n') == 61);
  CHECK_THAT(requests, Catch::StartsWith("request,instance,prompt_tokens,output_tokens,submit_s"));
  const std::string trace = slurp(out / "trace.json");
  CHECK(json::parse(trace)["traceEvents"].size() > 10);
  CHECK_THAT(trace, Catch::Contains("\"ph\":\"C\"") && Catch::Contains("\"instance 0\""));
  CHECK_THAT(slurp(out / "resolved.yaml"), Catch::Contains("kind: serve") && Catch::Contains("warmup: 25"));
  // report.html: the summary, the two latency distributions over the 35 measured requests, the SLOs.
  const std::string report = slurp(out / "report.html");
  CHECK_THAT(report, Catch::Contains("35 requests (25 warm-up excluded)") &&
                         Catch::Contains("TTFT of the steady-state requests") &&
                         Catch::Contains("TPOT of the steady-state requests") &&
                         Catch::Contains("35 requests; SLO 1s") && Catch::Contains("35 requests; SLO 50ms") &&
                         Catch::Contains("Inputs (resolved.yaml)"));
  // The share of requests is a percentage: its axis ends at 100, not at the next step past it.
  CHECK_THAT(report, Catch::Contains("text-anchor=\"end\">100</text>") &&
                         !Catch::Contains("text-anchor=\"end\">120</text>"));
}

TEST_CASE("serve: the summary and metrics.json say what ran and what priced it") {
  const auto out = scratch_dir("serve-what-ran");
  const CliResult r = run_rlsim(run_small(out / "default"));
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Catch::Contains(
                 "deployment: 2 x H100, 1 instance(s) of tp 2, weights fp8, KV cache fp8, max_batch 256") &&
                 Catch::Contains("engine: vllm-v1, batching chunked_prefill (token_budget 8192)\n") &&
                 Catch::Contains("cost model: roofline; ops priced: ") && !Catch::Contains("weight-only"));
  const json m = json::parse(slurp(out / "default" / "metrics.json"));
  CHECK(m["deployment"]["tp"] == 2);
  CHECK(m["deployment"]["weights"] == "fp8");
  CHECK(m["deployment"]["kv_cache"] == "fp8");
  CHECK(m["deployment"]["engine"] == "vllm-v1");
  CHECK(m["deployment"]["scheduler"] == json{{"name", "chunked_prefill"}, {"token_budget", 8192}});
  CHECK(m["pricing"]["cost_model"] == "roofline");
  CHECK(m["pricing"]["profile"] == "");
  CHECK(m["pricing"]["ops_priced"]["gemm"]["datasheet"].get<long>() > 0);

  // Another engine and budget, on a card without fp8 tensor cores: the fp8 weights are weight-only.
  const CliResult a100 = run_rlsim(
      run_small(out / "a100",
                "--set serve.engine=sglang --set 'serve.scheduler={name: chunked_prefill, token_budget: "
                "2048}' --set cluster.pools.serve.gpu=A100"));
  REQUIRE(a100.exit_code == 0);
  CHECK_THAT(a100.out, Catch::Contains("engine: sglang, batching chunked_prefill (token_budget 2048)") &&
                           Catch::Contains("fp8 weights on A100, which has no fp8 peak: stored as fp8, "
                                           "multiplied at its bf16 peak (weight-only"));

  // A profile answers for the GEMMs it measured, and the summary names it.
  const CliResult profiled = run_rlsim(
      "run scenarios/validation/aic-llama31-70b-h100-fp8.yaml --set workload.requests=8 --set "
      "workload.concurrency=2 --set workload.warmup=2 --set workload.output_tokens=32 --out '" +
      (out / "profiled").string() + "'");
  REQUIRE(profiled.exit_code == 0);
  CHECK_THAT(profiled.out, Catch::Contains("cost model: profile h100-vllm.yaml; ops priced: "));
  const json pricing = json::parse(slurp(out / "profiled" / "metrics.json"))["pricing"];
  CHECK(pricing["profile"] == "h100-vllm.yaml");
  const json& gemm = pricing["ops_priced"]["gemm"];
  CHECK(gemm.value("measured", 0L) + gemm.value("interpolated", 0L) + gemm.value("fitted", 0L) > 0);
}

TEST_CASE("serve: the summary says when closed-loop clients send in lock-step, not for an offline batch") {
  // 25 identical clients: requests that finish in one iteration are sent again together.
  const auto loop = scratch_dir("serve-lockstep") / "out";
  const CliResult looped = run_rlsim(run_small(loop, "--set workload.requests=200"));
  REQUIRE(looped.exit_code == 0);
  const double share = json::parse(slurp(loop / "metrics.json"))["serving"]["sent_together_fraction"];
  CHECK(share >= 0.1);
  CHECK_THAT(looped.out, Catch::Contains("sent together: ") && Catch::Contains("as one wave"));
  // Fixed lengths: the line under it gives the run that shows the other bound, lengths spread by 5 %.
  CHECK_THAT(looped.out, Catch::Contains("the other bound, clients kept apart: --set "
                                         "'workload.output_tokens={uniform: {min: 500, max: 525}}'"));
  // Spread lengths: still partly in waves here, and no spread left to suggest.
  const auto spread = scratch_dir("serve-spread") / "out";
  const CliResult spread_out = run_rlsim(run_small(
      spread, "--set workload.requests=200 --set 'workload.output_tokens={uniform: {min: 500, max: 525}}'"));
  REQUIRE(spread_out.exit_code == 0);
  CHECK_THAT(spread_out.out, !Catch::Contains("the other bound"));
  CHECK(json::parse(slurp(spread / "metrics.json"))["serving"]["ttft_s"]["mean"].get<double>() <
        json::parse(slurp(loop / "metrics.json"))["serving"]["ttft_s"]["mean"].get<double>());
  // Every request of an offline batch leaves at once: all sent together, and nothing to say.
  const auto batch = scratch_dir("serve-offline") / "out";
  const CliResult offline = run_rlsim(run_small(batch, "--set workload.concurrency=60"));
  REQUIRE(offline.exit_code == 0);
  CHECK(json::parse(slurp(batch / "metrics.json"))["serving"]["sent_together_fraction"] == 1.0);
  CHECK_THAT(offline.out, !Catch::Contains("sent together"));
  // ... and the summary calls it what it is, not a loop of 60 clients.
  CHECK_THAT(offline.out, Catch::Contains("workload: offline batch (concurrency 60 covers every request: all "
                                          "sent at once), 60 requests"));
  CHECK_THAT(looped.out, Catch::Contains("workload: closed loop of 25 clients, 200 requests"));
}

TEST_CASE("serve: the same scenario and seed give byte-identical outputs, another seed differs") {
  const auto dir = scratch_dir("serve-determinism");
  const std::string lognormal =
      "--set 'workload.output_tokens={lognormal: {mean: 500, sigma: 0.6}, max: 3000}'";
  REQUIRE(run_rlsim(run_small(dir / "a", lognormal)).exit_code == 0);
  REQUIRE(run_rlsim(run_small(dir / "b", lognormal)).exit_code == 0);
  REQUIRE(run_rlsim(run_small(dir / "c", lognormal + " --seed 2")).exit_code == 0);
  for (const char* file : {"metrics.json", "trace.json", "requests.csv", "report.html"})
    CHECK(slurp(dir / "a" / file) == slurp(dir / "b" / file));
  CHECK(slurp(dir / "a" / "requests.csv") != slurp(dir / "c" / "requests.csv"));
}

TEST_CASE("serve: validate describes the deployment") {
  const CliResult r = run_rlsim("validate " + kServe);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("ok (serve-llama3-70b: serve, model llama-3-70b on 2 H100") &&
                        Catch::Contains("400 requests"));
}

TEST_CASE("serve: a sweep over the closed loop's concurrency has serving columns") {
  const auto dir = scratch_dir("serve-sweep") / "sweep";
  const CliResult r = run_rlsim("sweep " + kServe +
                                " --set workload.requests=40 --set workload.warmup=4 --param "
                                "workload.concurrency=1,4 --jobs 2 --out '" +
                                dir.string() + "'");
  REQUIRE(r.exit_code == 0);
  const rlsim::SweepTable table = rlsim::read_sweep_csv(dir / "sweep.csv");
  REQUIRE(table.rows.size() == 2);
  for (const char* column : {"ttft_p50_s", "ttft_p99_s", "tpot_p50_s", "tpot_p99_s", "requests_per_s",
                             "output_tokens_per_s", "sent_together_fraction", "prefix_cached_fraction"})
    CHECK(table.column(column) >= 0);
  // Four clients share the decode iterations: more requests per second, a slower TPOT.
  CHECK(table.number(1, "requests_per_s") > 2.0 * table.number(0, "requests_per_s"));
  CHECK(table.number(1, "tpot_p50_s") > table.number(0, "tpot_p50_s"));
  CHECK(table.number(1, "tpot_p50_s") < 0.2);  // sweep.csv keeps seconds
  // Every prompt new: none found cached.
  CHECK(table.rows.at(0)[static_cast<size_t>(table.column("prefix_cached_fraction"))] == "0");
  // One client never sends beside another.
  CHECK(table.rows.at(0)[static_cast<size_t>(table.column("sent_together_fraction"))] == "0");
  CHECK_THAT(r.out, Catch::Contains("ttft_p50_ms"));  // the printed table reads in ms
  // 36 measured requests are too few for a p99: the table prints "-" and says why.
  CHECK(table.rows.at(0)[static_cast<size_t>(table.column("ttft_p99_s"))].empty());
  CHECK_THAT(r.out, Catch::Contains("-: too few measured requests for that percentile"));
}

TEST_CASE("serve: --unset trades the file's closed loop for Poisson arrivals, in a run and in a sweep") {
  const auto dir = scratch_dir("serve-unset");
  // A --set rate beside the file's concurrency is refused, naming the --unset that replaces it.
  const CliResult both = run_rlsim(run_small(dir / "both", "--set workload.rate=1/s"));
  CHECK(both.exit_code == 2);
  CHECK_THAT(both.err, Catch::Contains("found concurrency and rate (the file's concurrency: add --unset "
                                       "workload.concurrency to replace it)"));
  CHECK_FALSE(std::filesystem::exists(dir / "both"));
  const CliResult open_loop =
      run_rlsim(run_small(dir / "open", "--unset workload.concurrency --set workload.rate=1/s"));
  REQUIRE(open_loop.exit_code == 0);
  CHECK_THAT(open_loop.out, Catch::Contains("Poisson arrivals at 1 requests/s"));
  const std::string resolved = slurp(dir / "open" / "resolved.yaml");
  CHECK_THAT(resolved, Catch::Contains("rate: 1") && !Catch::Contains("concurrency"));
  // A typo is refused at the argument, with the field it may mean.
  const CliResult typo = run_rlsim(run_small(dir / "typo", "--unset workload.concurency"));
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("--unset workload.concurency: error: the scenario has no field "
                                       "'workload.concurency' (did you mean 'workload.concurrency'?)"));
  // A sweep keeps its --unset in sweep.json: the same command resumes, and the validated cases it
  // names run with it.
  const std::string sweep = "sweep " + kServe +
                            " --unset workload.concurrency --set workload.requests=40 --param "
                            "workload.rate=0.5/s,1/s --out '" +
                            (dir / "sweep").string() + "'";
  const CliResult first = run_rlsim(sweep);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out,
             Catch::Contains("rlsim validation --near " + kServe + " --unset workload.concurrency"));
  CHECK(json::parse(slurp(dir / "sweep" / "sweep.json"))["unsets"] == json::array({"workload.concurrency"}));
  CHECK(rlsim::read_sweep_csv(dir / "sweep" / "sweep.csv").rows.size() == 2);
  const CliResult again = run_rlsim(sweep);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("2 already done, running 0"));
}

TEST_CASE("serve: a sweep's value may be a distribution: fixed against spread lengths, the two TTFT bounds") {
  const auto dir = scratch_dir("serve-bounds-sweep") / "sweep";
  const std::string sweep =
      "sweep " + kServe +
      " --set workload.requests=100 --param 'workload.output_tokens=500,{uniform: {min: "
      "500, max: 525}}' -q --out '" +
      dir.string() + "'";
  const CliResult first = run_rlsim(sweep);
  REQUIRE(first.exit_code == 0);
  const rlsim::SweepTable table = rlsim::read_sweep_csv(dir / "sweep.csv");
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows.at(1)[1] == "{uniform: {min: 500, max: 525}}");  // one cell, quoted in the file
  CHECK_THAT(slurp(dir / "sweep.csv"), Catch::Contains("\"{uniform: {min: 500, max: 525}}\""));
  // Clients that drift apart queue less: the median TTFT falls.
  CHECK(table.number(1, "ttft_p50_s") < table.number(0, "ttft_p50_s"));
  CHECK_THAT(run_rlsim(sweep).out, Catch::Contains("2 already done, running 0"));
}

TEST_CASE("serve: a bad request-trace row is an error at its line, exit 2, nothing written") {
  const auto dir = scratch_dir("serve-bad-trace");
  std::ofstream(dir / "requests.csv") << "arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,100,-3\n";
  std::ofstream(dir / "serve.yaml") << kTracedServe;
  const CliResult r =
      run_rlsim("run '" + (dir / "serve.yaml").string() + "' --out '" + (dir / "out").string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains((dir / "requests.csv").string() + ":3:9: error: expected output_tokens"));
  CHECK_FALSE(std::filesystem::exists(dir / "out"));
}

TEST_CASE("serve: a replayed trace's resolved.yaml re-runs from its own folder") {
  const auto dir = scratch_dir("serve-trace-round-trip");
  std::ofstream(dir / "requests.csv") << "arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,200,20\n";
  std::ofstream(dir / "serve.yaml") << kTracedServe;
  REQUIRE(run_rlsim("run '" + (dir / "serve.yaml").string() + "' --out '" + (dir / "a").string() + "'")
              .exit_code == 0);
  // The trace is named by its absolute path: the relative one pointed beside the scenario.
  const std::string trace = std::filesystem::absolute(dir / "requests.csv").lexically_normal().string();
  CHECK_THAT(slurp(dir / "a" / "resolved.yaml"), Catch::Contains("trace: " + trace));
  REQUIRE(
      run_rlsim("run '" + (dir / "a" / "resolved.yaml").string() + "' --out '" + (dir / "b").string() + "'")
          .exit_code == 0);
  REQUIRE(
      run_rlsim("run '" + (dir / "b" / "resolved.yaml").string() + "' --out '" + (dir / "c").string() + "'")
          .exit_code == 0);
  for (const char* file : {"metrics.json", "requests.csv", "trace.json", "resolved.yaml"})
    CHECK(slurp(dir / "b" / file) == slurp(dir / "c" / file));
  // The first run takes its link latencies from the defaults, its re-runs from resolved.yaml's
  // "5us", which parses a last bit apart (left as it is): the re-runs agree byte for byte, and the
  // first run served the same requests.
  const std::string requests = slurp(dir / "a" / "requests.csv");
  CHECK(std::count(requests.begin(), requests.end(), '\n') == 3);
}

TEST_CASE(
    "serve: prompts longer than inflight_batching's token budget are refused, as TensorRT-LLM refuses them") {
  const auto dir = scratch_dir("serve-whole-prompts");
  const auto scenario = [&](const std::string& serve, const std::string& prompt) {
    std::ofstream(dir / "serve.yaml") << "kind: serve\nmodel: llama-3.1-8b\ncluster: {pools: [{name: s, gpu: "
                                         "H100, nodes: 1, gpus_per_node: 1}], "
                                         "links: [{between: [agents, s], bandwidth: 100Gbps}, {between: "
                                         "[dataplane, s], bandwidth: 100Gbps}]}\n"
                                         "workload: {requests: 4, concurrency: 1, prompt_tokens: "
                                      << prompt << ", output_tokens: 10}\nserve:\n  " << serve << "\n";
    return "validate '" + (dir / "serve.yaml").string() + "'";
  };
  SECTION("a budget set under the longest prompt: the error is at the budget") {
    const CliResult r =
        run_rlsim(scenario("{pool: s, scheduler: {name: inflight_batching, token_budget: 4096}}",
                           "{uniform: {min: 1000, max: 5000}}"));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("serve.yaml:6:") &&
                          Catch::Contains("error: serve.scheduler inflight_batching keeps prompts whole") &&
                          Catch::Contains("workload.prompt_tokens at its largest is 5000 tokens, over the "
                                          "token budget of 4096") &&
                          Catch::Contains("token_budget: 5000}"));
  }
  SECTION("the trtllm preset's own scheduler and budget (8192): the error is at the serve block") {
    const CliResult r = run_rlsim(scenario("{pool: s, engine: trtllm}", "10000"));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("serve.yaml:6:") && Catch::Contains("over the token budget of 8192"));
  }
  SECTION("a budget that holds the longest prompt, or a scheduler that chunks, runs") {
    CHECK(run_rlsim(scenario("{pool: s, scheduler: {name: inflight_batching, token_budget: 5000}}", "5000"))
              .exit_code == 0);
    CHECK(run_rlsim(scenario("{pool: s, scheduler: {name: chunked_prefill, token_budget: 4096}}", "10000"))
              .exit_code == 0);
  }
}

TEST_CASE("serve with AFD: the per-GPU throughput counts the FFN pool's GPUs too") {
  const auto dir = scratch_dir("serve-afd");
  std::ofstream(dir / "s.yaml")
      << "kind: serve\nmodel: qwen3-30b-a3b\ncluster:\n  pools:\n"
         "    - {name: attention, gpu: H800, nodes: 1, gpus_per_node: 2}\n"
         "    - {name: ffn, gpu: H20, nodes: 1, gpus_per_node: 4}\n"
         "  links:\n    - {between: [attention, ffn], bandwidth: 1.6Tbps, latency: 2us}\n"
         "    - {between: [agents, attention], bandwidth: 100Gbps}\n"
         "    - {between: [dataplane, attention], bandwidth: 100Gbps}\n"
         "workload: {requests: 20, concurrency: 4, prompt_tokens: 256, output_tokens: 32}\n"
         "serve: {pool: attention, weights: fp8, kv_cache: fp8,\n"
         "        afd: {ffn_pool: ffn, attention_gpus: 2, ffn_gpus: 4, micro_batches: 2}}\n";
  const CliResult r =
      run_rlsim("run '" + (dir / "s.yaml").string() + "' --out '" + (dir / "out").string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const json m = json::parse(slurp(dir / "out" / "metrics.json"));
  CHECK(m["deployment"]["gpus"] == 2);
  CHECK(m["deployment"]["ffn_pool"] == "ffn");
  CHECK(m["deployment"]["ffn_gpus"] == 4);
  const json& s = m["serving"];
  REQUIRE(s["output_tokens_per_s"].get<double>() > 0.0);
  CHECK(s["output_tokens_per_s_per_gpu"].get<double>() == Approx(s["output_tokens_per_s"].get<double>() / 6));
}

TEST_CASE("a serve run whose --out holds its own trace is refused before simulating, the trace kept") {
  const auto dir = scratch_dir("serve-trace-in-out");
  const std::string trace = "arrival_s,prompt_tokens,output_tokens\n0,100,20\n0.5,200,30\n";
  std::ofstream(dir / "requests.csv") << trace;
  std::ofstream(dir / "serve.yaml")
      << "kind: serve\nmodel: llama-3-8b\ncluster:\n  pools:\n"
         "    - {name: serve, gpu: H100, nodes: 1, gpus_per_node: 1}\n  links:\n"
         "    - {between: [agents, serve], bandwidth: 100Gbps}\n"
         "    - {between: [dataplane, serve], bandwidth: 100Gbps}\n"
         "serve: {pool: serve, tp: 1}\nworkload: {trace: requests.csv}\n";
  const auto r = run_rlsim("run '" + (dir / "serve.yaml").string() + "' --out '" + dir.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("is an input of this run"));
  std::ifstream in(dir / "requests.csv");
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == trace);
  CHECK_FALSE(std::filesystem::exists(dir / "metrics.json"));
  // Elsewhere it runs.
  CHECK(run_rlsim("run '" + (dir / "serve.yaml").string() + "' --out '" + (dir / "out").string() + "'")
            .exit_code == 0);
}
