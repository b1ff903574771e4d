// The `serve:` and `workload:` sections of a serving scenario.
#include "sim/scenario/serve_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "sim/scenario/cluster_reader.h"
#include "sim/scenario/context_window_check.h"
#include "sim/scenario/distribution_reader.h"
#include "sim/scenario/memory_check.h"
#include "sim/scenario/parallelism_check.h"
#include "sim/scenario/profile_loader.h"
#include "sim/scenario/profile_range_check.h"
#include "sim/scenario/request_trace_reader.h"
#include "sim/scenario/scenario_header.h"

namespace rlsim {
namespace {

constexpr int64_t kMaxRequests = 10'000'000;
const Field kRateField{"rate", "Poisson arrivals: requests per second (4/s); one of concurrency, rate, trace",
                       "requests/s"};
const Field kTraceField{
    "trace", "replayed arrivals: a request CSV (relative to the scenario); one of concurrency, rate, trace"};
const Field kRequestsField{"requests", "requests sent (with a trace: its first rows)", "requests",
                           "required; with a trace: its rows"};
const Field kConcurrencyField{
    "concurrency", "closed loop: requests in flight at once; one of concurrency, rate, trace", "requests"};

/// `rate`: requests per second, written `4`, `4/s` or `0.5/s`.
double read_rate(YamlReader& r) {
  const YAML::Node node = r.raw(kRateField.key);
  std::string text = node.IsScalar() ? node.Scalar() : std::string();
  if (text.size() > 2 && text.compare(text.size() - 2, 2, "/s") == 0) text.resize(text.size() - 2);
  char* end = nullptr;
  const double rate = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(rate) || rate <= 0.0)
    r.fail("rate", "expected requests per second > 0, such as 4/s or 0.5/s");
  r.record("rate", YAML::Node(rate));
  return rate;
}

ServeWorkloadSpec read_serve_workload(YamlReader& r, const std::string& scenario_path,
                                      const EngineOverhead& engine) {
  const ServeWorkloadSpec d;
  ServeWorkloadSpec w;
  r.describe(kRateField, {"", "number", "", "none", "> 0", "", {}});
  r.describe(kTraceField, {"", "file", "", "none", "", "", {}});
  r.describe(kConcurrencyField,
             {"", "integer", "", "none", "1 to " + std::to_string(kMaxConcurrency), "", {}});
  std::vector<std::string> modes;
  for (const char* mode : {"concurrency", "rate", "trace"}) {
    if (r.has(mode)) modes.emplace_back(mode);
  }
  if (modes.size() != 1) {
    // When a --set (or a sweep's --param) gave one and the file another, the file's is the one to
    // remove from the command line.
    std::string from_file;
    bool from_command_line = false;
    for (const auto& mode : modes) {
      const bool overridden = r.where(mode).file.rfind("--", 0) == 0;
      from_command_line = from_command_line || overridden;
      if (!overridden) from_file = mode;
    }
    std::string found = modes.empty() ? "none" : join(modes, " and ");
    if (from_command_line && !from_file.empty())
      found += " (the file's " + from_file + ": add --unset workload." + from_file + " to replace it)";
    r.fail_here(
        "expected exactly one of concurrency (closed loop), rate (Poisson arrivals) or trace (a "
        "request CSV), found " +
        found);
  }
  if (r.has("trace")) {
    w.arrivals = ArrivalMode::trace;
    w.arrivals_where = r.where("trace");
    w.trace_file = r.text(kTraceField);
    w.trace_path = input_file_beside(r, "trace", w.trace_file, scenario_path, "request trace");
    w.trace = read_request_trace(w.trace_path);
    const auto rows = static_cast<int64_t>(w.trace.size());
    w.requests = static_cast<int>(r.integer_or(kRequestsField, rows, 1, rows));
    w.trace.resize(static_cast<size_t>(w.requests));
    for (const char* key : {"prompt_tokens", "output_tokens"}) {
      if (r.has(key))
        r.fail(key, std::string("expected no ") + key + " with a trace: each row gives its own tokens");
    }
  } else {
    if (r.has("concurrency")) {
      w.arrivals = ArrivalMode::closed_loop;
      w.arrivals_where = r.where("concurrency");
      w.concurrency = static_cast<int>(r.integer(kConcurrencyField, 1, kMaxConcurrency));
    } else {
      w.arrivals = ArrivalMode::poisson;
      w.arrivals_where = r.where("rate");
      w.rate_per_s = read_rate(r);
    }
    w.requests = static_cast<int>(r.integer(kRequestsField, 1, kMaxRequests));
    // Poisson arrivals span requests / rate on average: no longer than a trace's arrivals may.
    if (w.arrivals == ArrivalMode::poisson && w.requests / w.rate_per_s > kMaxRecordedSeconds) {
      char years[32];
      std::snprintf(years, sizeof years, "%.3g", w.requests / w.rate_per_s / (365.25 * 24 * 3600.0));
      r.fail("rate", "expected arrivals within a year, as a trace's: " + std::to_string(w.requests) +
                         " requests at this rate arrive over about " + years +
                         " years; give a higher rate or fewer requests");
    }
    w.prompt_tokens = read_distribution(r, {"prompt_tokens", "prompt length per request", "tokens"},
                                        std::nullopt, d.prompt_tokens, 0.0, kMaxTokensPerSequence);
    w.output_tokens = read_distribution(r, {"output_tokens", "tokens generated per request", "tokens"},
                                        std::nullopt, d.output_tokens, 1.0, kMaxTokensPerSequence);
  }
  w.shared_prefix_tokens = static_cast<int>(r.integer_or(
      {"shared_prefix_tokens",
       "tokens at the start of every prompt that are a system prompt shared with other requests: a "
       "replica whose prefix cache holds it prefills only the rest (serve.prefix_cache)",
       "tokens", "0"},
      d.shared_prefix_tokens, 0, static_cast<int64_t>(kMaxTokensPerSequence)));
  w.shared_prefix_groups = static_cast<int>(r.integer_or(
      {"shared_prefix_groups", "how many different shared system prompts: request k has prompt k mod this",
       "prompts", "1"},
      d.shared_prefix_groups, 1, 1 << 20));
  if (w.shared_prefix_groups > 1 && w.shared_prefix_tokens == 0)
    r.fail("shared_prefix_groups", "expected shared_prefix_tokens beside more than one shared_prefix_groups");
  const Field pool_field{
      "prompt_pool",
      "distinct prompts the requests draw theirs from, uniformly with replacement, as a "
      "benchmark client reuses its dataset entries (aiperf --num-dataset-entries): a prompt "
      "drawn again is served from the prefix cache while a replica holds it (serve.prefix_cache)",
      "prompts", "0: every prompt new"};
  w.prompt_pool = static_cast<int>(r.integer_or(pool_field, d.prompt_pool, 0, 1 << 24));
  if (w.prompt_pool > 0 && w.arrivals == ArrivalMode::trace)
    r.fail("prompt_pool", "expected no prompt_pool with a trace: each row is its own prompt");
  if (w.prompt_pool > 0 && w.shared_prefix_tokens > 0)
    r.fail("prompt_pool",
           "expected either prompt_pool (whole prompts reused) or shared_prefix_tokens (a shared start), not "
           "both");
  w.warmup_requests = static_cast<int>(
      r.integer_or({"warmup", "first requests left out of the latency and throughput figures", "requests",
                    "concurrency with a closed loop narrower than requests, else 0"},
                   std::min(w.warmup(), w.requests - 1), 0, static_cast<int64_t>(w.requests) - 1));
  w.api_server_s = r.quantity_or(
      {"api_server",
       "per request, what the client waits for beyond the engine: the API server's HTTP, tokenisation, "
       "detokenisation and streaming; added to TTFT and end-to-end latency. 0 ms when requests reach the "
       "engine in-process (trtllm-bench, an offline LLM API)",
       "", "the engine preset's api_server_s (rlsim list engines)"},
      Quantity::duration, engine.api_server_s, true);
  YamlReader slo = r.map_or_empty({"slo", "latency targets: the share of requests meeting them is reported"});
  w.slo_ttft_s = slo.optional_quantity({"ttft", "time-to-first-token target"}, Quantity::duration);
  w.slo_tpot_s = slo.optional_quantity({"tpot", "time-per-output-token target"}, Quantity::duration);
  slo.finish();
  r.finish();
  return w;
}

void check_every_serve_pool_used(const Scenario& s) {
  for (const auto& pool : s.cluster.pools) {
    if (pool.name == s.rollout.pool || (s.rollout.afd && pool.name == s.rollout.afd->ffn_pool)) continue;
    throw InputError(pool.where,
                     "pool '" + pool.name + "' is not used by serve.pool ('" + s.rollout.pool + "')");
  }
}

}  // namespace

LoadedServeScenario load_serve_scenario(const std::string& path, const LoadOptions& options) {
  YamlSource source = load_yaml_file(path);
  source.fields = options.fields;
  apply_load_overrides(source, options);

  YAML::Node resolved(YAML::NodeType::Map);
  YamlReader root(source, source.root, "", resolved);
  LoadedServeScenario loaded;
  Scenario& s = loaded.scenario.deployment;
  s.file = path;
  if (root.choice_or(kKindField, ScenarioFileKind::rl) != ScenarioFileKind::serve) {
    root.fail("kind", "load_serve_scenario needs 'kind: serve'");
  }
  read_name_and_seed(root, path, options, Scenario{}.seed, s.name, s.seed);
  loaded.catalog = load_scenario_catalog(root, path, options);
  s.model = loaded.catalog.model(root.text(kModelField), root.where("model"));

  YamlReader cluster = root.map(kClusterField);
  s.cluster = read_cluster(cluster, loaded.catalog);
  YamlReader serve = root.map({"serve", "the inference deployment: fields as in an RL scenario's rollout"});
  s.rollout = read_rollout(serve, s.cluster, loaded.catalog, s.model);
  s.training.pool = s.rollout.pool;  // no trainer: the deployment's own pool stands in
  YamlReader workload = root.map({"workload", "the requests a serving scenario sends"});
  loaded.scenario.workload = read_serve_workload(workload, path, s.rollout.engine_overhead);
  read_cost_model(root, path, options, loaded.catalog, s);

  check_every_serve_pool_used(s);
  check_rollout_tensor_parallel(s, serve);
  if (options.check_memory) {
    const ServeWorkloadSpec& w = loaded.scenario.workload;
    check_request_context(s, w, workload, serve);
    check_rollout_memory(s, serve);
    if (w.arrivals == ArrivalMode::trace) {
      const size_t i = longest_request(w.trace);
      check_sequence_fits(s, w.trace[i].prompt_tokens + w.trace[i].output_tokens,
                          "request " + std::to_string(i + 1) + " of the trace (its longest)",
                          {w.trace_path, w.trace[i].line, 1});
    } else {
      check_sequence_fits(
          s, w.prompt_tokens.largest() + w.output_tokens.largest(),
          "the largest prompt_tokens and output_tokens",
          workload.where(w.prompt_tokens.largest() >= w.output_tokens.largest() ? "prompt_tokens"
                                                                                : "output_tokens"));
    }
  }
  root.finish();
  if (!s.profile.empty()) {
    s.profile_range_notes = engine_range_notes(s.rollout, "serve", s.cluster.pool(s.rollout.pool)->card.name,
                                               load_profile(s.profile));
  }

  loaded.resolved_yaml = resolved_yaml_text(resolved);
  return loaded;
}

}  // namespace rlsim
