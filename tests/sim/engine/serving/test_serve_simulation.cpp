// Serving benchmarks end to end on the engine (sim/engine/serving/serve_simulation.h): the closed
// loop keeps exactly `concurrency` requests in flight, Poisson arrivals come at the rate asked, a
// replayed trace is sent at its own times with its own tokens, each figure follows its definition
// from the requests' times, and the same scenario and seed give the same run.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "serve_test_support.h"

using namespace rlsim;
using test::Figures;

namespace {

/// Requests in flight (sent, last token not yet seen by the client) just after `t`.
int in_flight(const Figures& f, double t) {
  const auto submit = f.list("submit_s"), finish = f.list("finish_s"), api_server = f.list("api_server_s");
  int n = 0;
  for (size_t i = 0; i < submit.size(); ++i) n += submit[i] <= t && finish[i] + api_server[i] > t ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("a closed loop keeps exactly its concurrency in flight") {
  const auto loaded = test::load_serve_inline(
      "closed",
      test::serve_yaml("  requests: 40\n  concurrency: 5\n  prompt_tokens: {uniform: {min: 100, max: "
                       "400}}\n  output_tokens: {uniform: {min: 10, max: 60}}\n"));
  const Figures f = test::serve_in_child(loaded.scenario);
  const auto submit = f.list("submit_s"), finish = f.list("finish_s");
  REQUIRE(submit.size() == 40);
  // The default engine preset's API server (vllm-v1: 10.8 ms) stands between client and engine.
  const double api_server_s = loaded.scenario.workload.api_server_s;
  CHECK(api_server_s == Approx(0.0108));
  CHECK(f.list("api_server_s") == std::vector<double>(40, api_server_s));
  // The first five go at once; never more than five are out.
  CHECK(std::count(submit.begin(), submit.end(), 0.0) == 5);
  for (double t : submit) CHECK(in_flight(f, t) <= 5);
  for (double t : finish) CHECK(in_flight(f, t) <= 5);
  // Every later request follows a completion as its client sees it: the k-th send after the first
  // five comes the API server's time after the k-th completion, within the reply's network delay
  // (well under a millisecond).
  std::vector<double> sends(submit.begin() + 5, submit.end()), done = finish;
  std::sort(sends.begin(), sends.end());
  std::sort(done.begin(), done.end());
  for (size_t k = 0; k < sends.size(); ++k) {
    CHECK(sends[k] >= done[k] + api_server_s);
    CHECK(sends[k] - done[k] - api_server_s < 1e-3);
  }
  // Between the first and the last send, five are out but for those network delays.
  const double span = sends.back();
  int full = 0, samples = 0;
  for (double t = span / 100.0; t < span; t += span / 100.0, ++samples) full += in_flight(f, t) == 5 ? 1 : 0;
  CHECK(full >= samples * 9 / 10);
  CHECK(f.at("warmup_excluded") == 5);  // the default warm-up: the first burst
}

TEST_CASE("identical closed-loop requests are sent in lock-step, varied or Poisson ones are not") {
  const std::string identical =
      "  requests: 60\n  concurrency: 6\n  prompt_tokens: 200\n  output_tokens: 30\n";
  const auto same = test::load_serve_inline("lockstep", test::serve_yaml(identical));
  CHECK(test::serve_in_child(same.scenario).at("sent_together_fraction") > 0.5);
  const auto varied = test::load_serve_inline(
      "drifting", test::serve_yaml("  requests: 60\n  concurrency: 6\n  prompt_tokens: 200\n  output_tokens: "
                                   "{uniform: {min: 20, max: 40}}\n"));
  const auto poisson = test::load_serve_inline(
      "arrivals", test::serve_yaml("  requests: 60\n  rate: 5/s\n  prompt_tokens: 200\n"));
  CHECK(test::serve_in_child(varied.scenario).at("sent_together_fraction") <
        test::serve_in_child(same.scenario).at("sent_together_fraction"));
  CHECK(test::serve_in_child(poisson.scenario).at("sent_together_fraction") == 0.0);
}

TEST_CASE("open-loop arrivals come at the rate asked, as a Poisson process") {
  const auto loaded = test::load_serve_inline(
      "poisson",
      test::serve_yaml("  requests: 300\n  rate: 20/s\n  prompt_tokens: 100\n  output_tokens: 10\n", 2));
  const Figures f = test::serve_in_child(loaded.scenario);
  const auto submit = f.list("submit_s");
  REQUIRE(submit.size() == 300);
  CHECK(std::is_sorted(submit.begin(), submit.end()));
  // 299 exponential gaps of mean 1/20 s: their sum is within 3 standard deviations (3 / sqrt(299)).
  const double rate = (submit.size() - 1) / (submit.back() - submit.front());
  CHECK(rate == Approx(20.0).epsilon(3.0 / std::sqrt(299.0)));
  // Exponential gaps: their standard deviation equals their mean (within sampling error).
  double sum = 0.0, squares = 0.0;
  for (size_t i = 1; i < submit.size(); ++i) {
    const double gap = submit[i] - submit[i - 1];
    sum += gap;
    squares += gap * gap;
  }
  const double mean = sum / 299.0, stddev = std::sqrt(squares / 299.0 - mean * mean);
  CHECK(stddev / mean == Approx(1.0).epsilon(0.25));
  CHECK(f.at("warmup_excluded") == 0);
  CHECK(f.at("instances") == 2);
}

TEST_CASE("open-loop arrivals that pile up past the requests a run may hold in flight stop it at 'rate'") {
  // 2,000 requests per second on one GPU with max_batch 8: the queue grows without bound.
  const auto loaded = test::load_serve_inline(
      "overload",
      test::serve_yaml("  requests: 300\n  rate: 2000/s\n  prompt_tokens: 100\n  output_tokens: 50\n"));
  const Figures refused = test::figures_in_child([&]() {
    test::Figures out;
    try {
      simulate_serve(loaded.scenario, {}, 32);
      out.set("refused", 0);
    } catch (const InputError& e) {
      out.set("refused", 1);
      const std::string message = e.what();
      out.set("at_rate_line",
              message.find(":13:9: error: the arrivals outpace the deployment: at ") != std::string::npos
                  ? 1
                  : 0);
      out.set("says_limit",
              message.find("32 requests were in flight (32 of 300 sent") != std::string::npos ? 1 : 0);
    }
    return out;
  });
  CHECK(refused.at("refused") == 1);
  CHECK(refused.at("at_rate_line") == 1);
  CHECK(refused.at("says_limit") == 1);
  // Under the default limit the same 300 requests fit in flight, and all are served.
  const Figures served = test::serve_in_child(loaded.scenario);
  CHECK(served.list("submit_s").size() == 300);
}

TEST_CASE("a replayed trace is sent at its own arrival times with its own tokens") {
  const std::string dir = std::filesystem::path(test::write_scenario("trace-dir", "")).parent_path().string();
  std::ofstream(dir + "/requests.csv") << "arrival_s,prompt_tokens,output_tokens\n0,120,8\n0.25,300,16\n"
                                          "0.25,50,1\n# a comment\n\n2.5,700,40\n";
  const auto loaded = test::load_serve_inline("trace", test::serve_yaml("  trace: requests.csv\n"));
  const Figures f = test::serve_in_child(loaded.scenario);
  CHECK(f.list("submit_s") == std::vector<double>{0.0, 0.25, 0.25, 2.5});
  CHECK(f.list("prompt_tokens") == std::vector<double>{120, 300, 50, 700});
  CHECK(f.list("output_tokens") == std::vector<double>{8, 16, 1, 40});
  // Each request's times are in order: sent, admitted, first token, last token.
  const auto submit = f.list("submit_s"), prefill = f.list("prefill_start_s"),
             first = f.list("first_token_s"), finish = f.list("finish_s");
  for (size_t i = 0; i < submit.size(); ++i) {
    CHECK(submit[i] <= prefill[i]);
    CHECK(prefill[i] < first[i]);
    CHECK(first[i] <= finish[i]);
  }
  CHECK(first[2] == finish[2]);  // one output token: the prefill makes it
}

TEST_CASE("a shared system prompt is prefilled once per replica and prompt, then served from its cache") {
  // One client, one replica: requests 0 and 1 bring system prompts 0 and 1 for the first time;
  // every later one finds its prompt cached and prefills only the 400 tokens after it.
  const std::string workload =
      "  requests: 6\n  concurrency: 1\n  prompt_tokens: 1000\n  output_tokens: 4\n"
      "  shared_prefix_tokens: 600\n  shared_prefix_groups: 2\n";
  const auto cached = test::load_serve_inline("shared-prefix", test::serve_yaml(workload));
  CHECK(test::serve_in_child(cached.scenario).list("prefilled_tokens") ==
        std::vector<double>{1000, 1000, 400, 400, 400, 400});
  // Without the deployment's prefix cache every prompt is prefilled whole.
  std::string off = test::serve_yaml(workload);
  off.replace(off.find("max_batch: 8"), 12, "max_batch: 8, prefix_cache: false");
  const auto uncached = test::load_serve_inline("shared-prefix-off", off);
  CHECK(test::serve_in_child(uncached.scenario).list("prefilled_tokens") == std::vector<double>(6, 1000.0));
}

TEST_CASE("a shared system prompt takes KV once however many running requests read it") {
  // Eight clients, 1,000-token prompts of which 900 are one system prompt: with the cache the
  // batch holds the prompt once and each request's 100 tokens after it (and its output), without
  // it every request holds all 1,000.
  const std::string workload =
      "  requests: 24\n  concurrency: 8\n  prompt_tokens: 1000\n  output_tokens: 4\n"
      "  shared_prefix_tokens: 900\n";
  const Figures shared =
      test::serve_in_child(test::load_serve_inline("shared-kv", test::serve_yaml(workload)).scenario);
  std::string off = test::serve_yaml(workload);
  off.replace(off.find("max_batch: 8"), 12, "max_batch: 8, prefix_cache: false");
  const Figures whole = test::serve_in_child(test::load_serve_inline("shared-kv-off", off).scenario);
  REQUIRE(whole.at("kv_use_max") > 0.0);
  // (900 + 8 x 104) / (8 x 1004) = 0.22 at a full batch
  CHECK(shared.at("kv_use_max") < 0.3 * whole.at("kv_use_max"));
}

TEST_CASE("a prompt drawn again from the pool is served from the prefix cache") {
  // One client, a pool of one prompt: the first request prefills all of it, every later one finds
  // it cached and computes only its last token.
  const std::string workload =
      "  requests: 5\n  concurrency: 1\n  warmup: 1\n  prompt_tokens: 1000\n  output_tokens: 4\n"
      "  prompt_pool: 1\n";
  const auto pooled = test::load_serve_inline("prompt-pool", test::serve_yaml(workload));
  const Figures hit = test::serve_in_child(pooled.scenario);
  CHECK(hit.list("prefilled_tokens") == std::vector<double>{1000, 1, 1, 1, 1});
  CHECK(hit.at("prefix_cached_fraction") == 1.0);
  // Every prompt new: each prefilled whole, none cached, and the TTFT longer.
  std::string fresh = test::serve_yaml(workload);
  fresh.erase(fresh.find("  prompt_pool: 1\n"));
  const Figures miss = test::serve_in_child(test::load_serve_inline("no-pool", fresh).scenario);
  CHECK(miss.list("prefilled_tokens") == std::vector<double>(5, 1000.0));
  CHECK(miss.at("prefix_cached_fraction") == 0.0);
  CHECK(hit.at("ttft_mean_s") < miss.at("ttft_mean_s"));
}

TEST_CASE("serving figures follow their definitions from the requests' times") {
  const auto loaded = test::load_serve_inline(
      "definitions",
      test::serve_yaml(
          "  requests: 30\n  concurrency: 4\n  warmup: 6\n  prompt_tokens: 200\n  output_tokens: "
          "{uniform: {min: 2, max: 50}}\n"));
  const Figures f = test::serve_in_child(loaded.scenario);
  const auto submit = f.list("submit_s"), first = f.list("first_token_s"), finish = f.list("finish_s"),
             output = f.list("output_tokens"), api_server = f.list("api_server_s"),
             prefill = f.list("prefill_start_s");
  double ttft = 0.0, e2e = 0.0, queue = 0.0, tpot = 0.0, tokens = 0.0, from = submit[6], to = 0.0;
  for (size_t i = 6; i < submit.size(); ++i) {
    // The client sees each token the API server's time after the engine made it.
    ttft += first[i] + api_server[i] - submit[i];
    e2e += finish[i] + api_server[i] - submit[i];
    queue += prefill[i] - submit[i];
    tpot += ((finish[i] - submit[i]) - (first[i] - submit[i])) / (output[i] - 1.0);
    tokens += output[i];
    from = std::min(from, submit[i]);
    to = std::max(to, finish[i] + api_server[i]);
  }
  CHECK(api_server.front() > 0.0);
  CHECK(f.at("measured") == 24);
  CHECK(f.at("ttft_mean_s") == Approx(ttft / 24.0).epsilon(1e-12));
  CHECK(f.at("e2e_mean_s") == Approx(e2e / 24.0).epsilon(1e-12));
  CHECK(f.at("queue_mean_s") == Approx(queue / 24.0).epsilon(1e-12));
  CHECK(f.at("tpot_mean_s") == Approx(tpot / 24.0).epsilon(1e-12));
  CHECK(f.at("requests_per_s") == Approx(24.0 / (to - from)).epsilon(1e-12));
  CHECK(f.at("output_tokens_per_s") == Approx(tokens / (to - from)).epsilon(1e-12));
  // At most 4 of max_batch 8 run at once; some run most of the time.
  CHECK(f.at("batch_occupancy") > 0.1);
  CHECK(f.at("batch_occupancy") <= 0.5);
  CHECK(f.at("kv_use_mean") > 0.0);
  CHECK(f.at("kv_use_mean") <= f.at("kv_use_max"));
  CHECK(f.at("kv_use_max") <= 1.0);
}

TEST_CASE("the API server's time is added to what each client sees and to nothing the engine does") {
  const std::string workload =
      "  requests: 12\n  concurrency: 1\n  prompt_tokens: 300\n  output_tokens: 20\n";
  const auto in_process =
      test::load_serve_inline("api-server-0", test::serve_yaml(workload + "  api_server: 0 ms\n"));
  const auto over_http =
      test::load_serve_inline("api-server-25", test::serve_yaml(workload + "  api_server: 25 ms\n"));
  CHECK(over_http.scenario.workload.api_server_s == Approx(0.025));
  const Figures a = test::serve_in_child(in_process.scenario), b = test::serve_in_child(over_http.scenario);
  const auto submit_a = a.list("submit_s"), submit_b = b.list("submit_s");
  const auto first_a = a.list("first_token_s"), first_b = b.list("first_token_s");
  const auto finish_a = a.list("finish_s"), finish_b = b.list("finish_s");
  REQUIRE(submit_b.size() == 12);
  for (size_t i = 0; i < submit_b.size(); ++i) {
    // One client: request i is sent once the client has seen i replies, each 25 ms late ...
    CHECK(submit_b[i] - submit_a[i] == Approx(0.025 * static_cast<double>(i)).margin(1e-9));
    // ... and the engine serves it exactly as it did in-process.
    CHECK(first_b[i] - submit_b[i] == Approx(first_a[i] - submit_a[i]).margin(1e-9));
    CHECK(finish_b[i] - submit_b[i] == Approx(finish_a[i] - submit_a[i]).margin(1e-9));
  }
  CHECK(b.at("ttft_mean_s") - a.at("ttft_mean_s") == Approx(0.025).margin(1e-9));
  CHECK(b.at("e2e_mean_s") - a.at("e2e_mean_s") == Approx(0.025).margin(1e-9));
  CHECK(b.at("tpot_mean_s") == Approx(a.at("tpot_mean_s")).margin(1e-12));
  CHECK(b.at("queue_mean_s") == Approx(a.at("queue_mean_s")).margin(1e-9));
}

TEST_CASE("the same serving scenario and seed give the same run and another seed another") {
  const std::string workload =
      "  requests: 50\n  rate: 8/s\n  prompt_tokens: {lognormal: {mean: 300, sigma: 0.5}, max: 4000}\n  "
      "output_tokens: "
      "20\n";
  const auto loaded = test::load_serve_inline("determinism", test::serve_yaml(workload));
  const Figures a = test::serve_in_child(loaded.scenario), b = test::serve_in_child(loaded.scenario);
  CHECK(a.serialise() == b.serialise());
  auto other = loaded.scenario;
  other.deployment.seed = 4;
  CHECK(test::serve_in_child(other).list("submit_s") != a.list("submit_s"));
}
