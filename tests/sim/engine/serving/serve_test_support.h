// Helpers for the serving tests: a small deployment (Qwen3-8B on H100s) written from inline YAML
// with the workload lines a test gives, loaded as a serving scenario against the source tree's
// catalog, and simulated in a forked child that sends each request's times back.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/serving/serve_simulation.h"
#include "sim/scenario/serve_reader.h"
#include "tests/sim/sim_test_support.h"

namespace rlsim::test {

/// A serving scenario of `gpus` H100s, TP 1, max_batch 8, and the `workload:` body given (its lines
/// indented by two spaces). The header is 11 lines, so the workload's first line is line 12.
inline std::string serve_yaml(const std::string& workload_lines, int gpus = 1) {
  return "kind: serve\nmodel: qwen3-8b\ncluster:\n  pools:\n    - {name: serve, gpu: H100, nodes: 1, "
         "gpus_per_node: " +
         std::to_string(gpus) +
         "}\n  links:\n    - {between: [agents, serve], bandwidth: 100Gbps}\n    - {between: [dataplane, "
         "serve], "
         "bandwidth: 100Gbps}\nserve: {pool: serve, tp: 1, max_batch: 8}\nseed: 3\nworkload:\n" +
         workload_lines;
}

inline LoadedServeScenario load_serve_inline(const std::string& name, const std::string& yaml) {
  LoadOptions options;
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  return load_serve_scenario(write_scenario(name, yaml), options);
}

/// Per request, in send order: submit_s, prefill_start_s, first_token_s, finish_s, output_tokens,
/// prompt_tokens, prefilled_tokens, api_server_s (lists under those names), and the run's metrics
/// under their ServingMetrics names.
inline Figures serve_in_child(const ServeScenario& scenario) {
  return figures_in_child([&]() {
    const ServeResult result = simulate_serve(scenario);
    Figures out;
    std::vector<double> submit, prefill, first, finish, output, prompt, prefilled, api_server;
    for (const LlmRequest& r : result.requests) {
      submit.push_back(r.submit_s);
      prefill.push_back(r.prefill_start_s);
      first.push_back(r.first_token_s);
      finish.push_back(r.finish_s);
      output.push_back(r.output_tokens);
      prompt.push_back(r.new_tokens);
      prefilled.push_back(r.prefilled_tokens);
      api_server.push_back(r.api_server_s);
    }
    out.set_list("submit_s", submit);
    out.set_list("prefill_start_s", prefill);
    out.set_list("first_token_s", first);
    out.set_list("finish_s", finish);
    out.set_list("output_tokens", output);
    out.set_list("prompt_tokens", prompt);
    out.set_list("prefilled_tokens", prefilled);
    out.set_list("api_server_s", api_server);
    const ServingMetrics& m = result.metrics;
    out.set("measured", m.measured);
    out.set("warmup_excluded", m.warmup_excluded);
    out.set("tpot_mean_s", m.tpot_s.mean);
    out.set("ttft_p50_s", m.ttft_s.p50);
    out.set("ttft_mean_s", m.ttft_s.mean);
    out.set("e2e_mean_s", m.e2e_s.mean);
    out.set("queue_mean_s", m.queue_s.mean);
    out.set("requests_per_s", m.requests_per_s);
    out.set("output_tokens_per_s", m.output_tokens_per_s);
    out.set("batch_occupancy", m.batch_occupancy);
    out.set("kv_use_mean", m.kv_use_mean);
    out.set("kv_use_max", m.kv_use_max);
    out.set("sent_together_fraction", m.sent_together_fraction);
    out.set("prefix_cached_fraction", m.prefix_cached_fraction);
    out.set("instances", static_cast<double>(result.load.size()));
    return out;
  });
}

}  // namespace rlsim::test
