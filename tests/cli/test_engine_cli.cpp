// The engine's time from the command line: `rlsim cost prefill|decode` (the breakdown adds up to
// `seconds`, the ideal engine is kernels and all-reduces only), the listings of engines and
// schedulers, and serving calibration: terms recovered from iterations synthesised with a known
// engine, the committed fixture calibrated deterministically, bad rows rejected at FILE:LINE:COL.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/cost/roofline_cost_model.h"
#include "sim/scenario/profile_loader.h"
#include "tests/cli/cli_support.h"
#include "tools/cli/calibrate_serving.h"
#include "tools/cli/iteration_pricing.h"

namespace rlsim {
namespace {

nlohmann::json cost_json(const std::string& args) {
  const auto r = test::run_rlsim("cost " + args + " --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

TEST_CASE("rlsim cost decode and prefill add the engine's terms to the kernels", "[cli][cost]") {
  const std::string decode = "decode --model llama-2-70b --hardware H100 --tp 8 --batch 64 --context 512";
  const auto ideal = cost_json(decode + " --engine ideal");
  CHECK(ideal["seconds"].get<double>() ==
        Approx(ideal["kernels_s"].get<double>() + ideal["allreduce_s"].get<double>()));
  CHECK(ideal["cpu_s"].get<double>() == 0.0);
  const auto vllm = cost_json(decode + " --engine vllm-v1");
  CHECK(vllm["kernels_s"].get<double>() == ideal["kernels_s"].get<double>());
  CHECK(vllm["cpu_s"].get<double>() > 0.0);
  CHECK(vllm["cuda_graph"].get<bool>());
  CHECK(vllm["seconds"].get<double>() ==
        Approx(vllm["kernels_s"].get<double>() + vllm["allreduce_s"].get<double>() +
               vllm["launch_s"].get<double>() + vllm["cpu_s"].get<double>()));
  // The profile's measured all-reduces replace the ring over the datasheet link: vLLM's own kernel
  // in its CUDA graphs, NCCL for vLLM V0, which has no table in the profile (and is slower here).
  const auto profiled = cost_json(decode + " --profile calibrate/profiles/h100.yaml");
  CHECK(profiled["allreduce_measured"].get<bool>());
  CHECK(profiled["allreduce_s"].get<double>() != vllm["allreduce_s"].get<double>());
  CHECK(profiled["allreduce_source"] == "the engine's own all-reduce, measured in CUDA graphs (profile)");
  const auto nccl = cost_json(decode + " --engine vllm-v0 --profile calibrate/profiles/h100.yaml");
  CHECK(nccl["allreduce_source"] == "NCCL, the profile's measured alpha-beta");
  CHECK(nccl["allreduce_s"].get<double>() > profiled["allreduce_s"].get<double>());

  const auto prefill = cost_json("prefill --model llama-2-70b --hardware H100 --tp 8 --batch 2 --prompt 512");
  CHECK(prefill["tokens"].get<int>() == 1024);
  CHECK(prefill["seconds"].get<double>() > 0.0);
  const auto text = test::run_rlsim("cost decode --model llama-2-70b --hardware H100 --tp 2 --context 512");
  REQUIRE(text.exit_code == 0);
  for (const char* term : {"kernels", "TP all-reduce", "graph gaps", "CPU"}) {
    INFO(term);
    CHECK(text.out.find(term) != std::string::npos);
  }
  CHECK(text.out.find("weight-only") == std::string::npos);
  CHECK(vllm["weights_multiplied_as"] == "bf16");

  // fp8 weights: multiplied in fp8 where the card has the path, at the bf16 peak where it has none.
  const std::string fp8 =
      "prefill --model llama-2-70b --tp 8 --batch 2 --prompt 512 --weights fp8 --hardware ";
  CHECK(cost_json(fp8 + "H100")["weights_multiplied_as"] == "fp8");
  const auto a100 = cost_json(fp8 + "A100");
  CHECK(a100["weights"] == "fp8");
  CHECK(a100["weights_multiplied_as"] == "bf16");
  const auto a100_text = test::run_rlsim("cost " + fp8 + "A100");
  CHECK(
      a100_text.out.find("fp8 weights on A100, which has no fp8 peak: stored as fp8, multiplied at its bf16 "
                         "peak (weight-only") != std::string::npos);

  // fp32 weights: no catalog card lists an fp32 peak, so the 16-bit one is said to be a bound.
  const auto fp32 =
      test::run_rlsim("cost decode --model llama-2-70b --hardware H100 --tp 8 --context 512 --weights fp32");
  CHECK(fp32.out.find(
            "fp32 weights on H100, whose fp32 peak the catalog does not list: multiplied at its bf16 peak, "
            "an optimistic bound") != std::string::npos);

  const auto unknown =
      test::run_rlsim("cost decode --model llama-2-70b --hardware H100 --context 1 --engine vlm");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("unknown engine 'vlm'") != std::string::npos);
}

TEST_CASE("rlsim list shows the engine presets and the replica schedulers", "[cli][list]") {
  const auto engines = test::run_rlsim("list engines");
  REQUIRE(engines.exit_code == 0);
  CHECK(engines.out.find("vllm-v1") != std::string::npos);
  CHECK(engines.out.find("ideal") != std::string::npos);
  const auto schedulers = test::run_rlsim("list schedulers");
  REQUIRE(schedulers.exit_code == 0);
  CHECK(schedulers.out.find("prefill_first") != std::string::npos);
  CHECK(schedulers.out.find("chunked_prefill") != std::string::npos);
  CHECK(schedulers.out.find("token_budget") != std::string::npos);
  CHECK(schedulers.out.find("inflight_batching ") != std::string::npos);  // a space before its description
}

TEST_CASE("rlsim list engines starts every description at the header's column", "[cli][list]") {
  const auto engines = test::run_rlsim("list engines");
  REQUIRE(engines.exit_code == 0);
  std::istringstream lines(engines.out);
  std::string header;
  std::getline(lines, header);
  const size_t column = header.find("description");
  REQUIRE(column != std::string::npos);
  int rows = 0;
  for (std::string line; std::getline(lines, line); ++rows) {
    INFO(line);
    REQUIRE(line.size() > column);
    CHECK(line[column - 1] == ' ');  // the batching column ended before it, however long its name
    CHECK(line[column] != ' ');
  }
  CHECK(rows >= 5);
}

TEST_CASE("serving calibration recovers the terms of the engine that produced the iterations",
          "[cli][calibrate]") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const HardwareSpec& card = catalog.hardware.at("H100");
  const EngineOverhead& truth = catalog.engines.at("vllm-v0");
  const RooflineCostModel roofline;
  const auto dir = test::scratch_dir("serving-synthetic");
  const auto csv = dir / "iterations.csv";
  {
    std::ofstream f(csv);
    f << "model,hardware,tp,batch,prompt_tokens,context_tokens,phase,measured_ms\n";
    for (const char* name : {"llama-2-7b", "llama-2-70b"}) {
      const int tp = std::string(name) == "llama-2-7b" ? 1 : 4;
      for (int64_t batch : {1, 8, 32, 64, 128}) {
        for (bool prefill : {false, true}) {
          const IterationQuery q{tp, prefill ? batch / 8 + 1 : batch, prefill ? 1024 : 0, 512, prefill};
          const PricedIteration p = price_iteration(q, catalog.models.at(name), card, roofline, truth,
                                                    pool_tp_allreduce(nullptr, card, truth.name, q.tp));
          const double s = iteration_terms(truth, p.shape, p.kernels_s, p.allreduce_s).total_s();
          f << name << ",H100," << q.tp << "," << q.batch << "," << q.prompt_tokens << "," << q.context_tokens
            << "," << (prefill ? "prefill" : "decode") << "," << s * 1e3 << "\n";
        }
      }
    }
  }
  const ServingCalibration c = calibrate_serving(catalog, card, {csv.string()}, "", "vllm-v1");
  CHECK(c.samples == 20);
  CHECK(c.fit.error.held_out_points == 4);
  CHECK(c.fit.error.held_out_mape < 0.01);
  CHECK(c.fit.preset_held_out_mape > 0.05);  // vllm-v1's own terms do not fit vllm-v0's iterations
  REQUIRE(c.fit.terms.cpu_fixed_s);
  REQUIRE(c.fit.terms.cpu_per_sequence_s);
  CHECK(*c.fit.terms.cpu_fixed_s == Approx(truth.cpu_fixed_s).epsilon(0.1));
  CHECK(*c.fit.terms.cpu_per_sequence_s == Approx(truth.cpu_per_sequence_s).epsilon(0.1));
}

TEST_CASE("serving calibration fits whole-batch latencies as the sum of their iterations",
          "[cli][calibrate]") {
  // A static batch as latency benchmarks time it: one prefill, then output − 1 decodes, decode k at
  // prompt + k tokens of context. Synthesised here iteration by iteration with a known engine; the
  // calibration must recover its terms from the batches' totals alone (long outputs are priced in
  // runs of decodes, so the 600-token rows also check that the runs keep the total).
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const HardwareSpec& card = catalog.hardware.at("H100");
  const ModelArch& model = catalog.models.at("llama-2-7b");
  const EngineOverhead& truth = catalog.engines.at("vllm-v0");
  const RooflineCostModel roofline;
  auto seconds = [&](const IterationQuery& q) {
    const PricedIteration p =
        price_iteration(q, model, card, roofline, truth, pool_tp_allreduce(nullptr, card, truth.name, q.tp));
    return iteration_terms(truth, p.shape, p.kernels_s, p.allreduce_s).total_s();
  };
  const auto dir = test::scratch_dir("serving-generate");
  const auto csv = dir / "batches.csv";
  {
    std::ofstream f(csv);
    f << "model,hardware,tp,batch,prompt_tokens,context_tokens,phase,measured_ms\n";
    for (int tp : {1, 2}) {
      for (int64_t batch : {1, 4, 16, 64, 200}) {
        for (int64_t output : {20, 600}) {
          const int64_t prompt = 128;
          double total = seconds({tp, batch, prompt, 0, true});
          for (int64_t k = 1; k < output; ++k) total += seconds({tp, batch, 0, prompt + k, false});
          f << "llama-2-7b,H100," << tp << "," << batch << "," << prompt << "," << prompt + output
            << ",generate," << total * 1e3 << "\n";
        }
      }
    }
  }
  const ServingCalibration c = calibrate_serving(catalog, card, {csv.string()}, "", "vllm-v0");
  CHECK(c.samples == 20);
  CHECK(c.fit.error.held_out_points == 4);
  CHECK(c.fit.error.held_out_mape < 0.005);
  REQUIRE(c.fit.terms.cpu_fixed_s);
  REQUIRE(c.fit.terms.cpu_per_sequence_s);
  CHECK(*c.fit.terms.cpu_fixed_s == Approx(truth.cpu_fixed_s).epsilon(0.1));
  CHECK(*c.fit.terms.cpu_per_sequence_s == Approx(truth.cpu_per_sequence_s).epsilon(0.1));
}

TEST_CASE("serving calibration keeps the terms batch-1 rows cannot identify, and extrapolates to batch 64",
          "[cli][calibrate]") {
  // A latency benchmark at batch 1 over prompt lengths: every iteration holds one sequence, so the
  // per-sequence CPU time moves the times exactly as the fixed one does. Synthesised from vllm-v0's
  // terms with vllm-v1's per-sequence time (which no batch-1 row can tell apart), fitted from vllm-v1.
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const HardwareSpec& card = catalog.hardware.at("H100");
  const ModelArch& model = catalog.models.at("llama-2-7b");
  EngineOverhead truth = catalog.engines.at("vllm-v0");
  const EngineOverhead& preset = catalog.engines.at("vllm-v1");
  truth.cpu_per_sequence_s = preset.cpu_per_sequence_s;  // what no batch-1 row can tell apart
  const RooflineCostModel roofline;
  auto seconds = [&](const EngineOverhead& engine, const IterationQuery& q) {
    const PricedIteration p = price_iteration(q, model, card, roofline, engine,
                                              pool_tp_allreduce(nullptr, card, engine.name, q.tp));
    return iteration_terms(engine, p.shape, p.kernels_s, p.allreduce_s).total_s();
  };
  // Without noise, and with each row off by +-4 % in turn (a benchmark's run-to-run spread).
  const double noise = GENERATE(0.0, 0.04);
  INFO("noise " << noise);
  const auto dir = test::scratch_dir("serving-batch-1");
  const auto csv = dir / "batch1.csv";
  {
    std::ofstream f(csv);
    f << "model,hardware,tp,batch,prompt_tokens,context_tokens,phase,measured_ms\n";
    double sign = 1.0;
    const auto measured_ms = [&](const IterationQuery& q) {
      sign = -sign;
      return seconds(truth, q) * (1.0 + sign * noise) * 1e3;
    };
    for (int tp : {1, 2, 4}) {
      for (int64_t prompt : {128, 512, 2048, 4096}) {  // within Llama-2's 4,096-token window
        f << "llama-2-7b,H100," << tp << ",1," << prompt << ",0,prefill,"
          << measured_ms({tp, 1, prompt, 0, true}) << "\n";
        f << "llama-2-7b,H100," << tp << ",1,0," << prompt << ",decode,"
          << measured_ms({tp, 1, 0, prompt, false}) << "\n";
      }
    }
  }
  const ServingCalibration c = calibrate_serving(catalog, card, {csv.string()}, "", "vllm-v1");
  INFO(c.fit.kept_at_preset.size());
  CHECK_FALSE(c.fit.terms.cpu_per_sequence_s);  // not identified: kept at the preset's
  bool said = false;
  for (const std::string& why : c.fit.kept_at_preset)
    said = said || why.rfind("cpu_per_sequence_s: not identified", 0) == 0;
  CHECK(said);
  // At batch 64 the fitted engine predicts what the engine that made the rows does.
  const EngineOverhead fitted = c.fit.terms.applied_to(preset);
  const IterationQuery batch64{1, 64, 0, 2048, false};
  CHECK(seconds(fitted, batch64) == Approx(seconds(truth, batch64)).epsilon(0.10));
}

TEST_CASE("rlsim calibrate --format serving writes an engine block, deterministically", "[cli][calibrate]") {
  const auto dir = test::scratch_dir("serving");
  const std::string args =
      "calibrate --format serving --hardware H100 --input tests/data/serving/h100-iterations.csv --out ";
  const auto first = test::run_rlsim(args + "'" + (dir / "a.yaml").string() + "'");
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("held-out MAPE") != std::string::npos);
  const auto second = test::run_rlsim(args + "'" + (dir / "b.yaml").string() + "'");
  CHECK(test::slurp(dir / "a.yaml") == test::slurp(dir / "b.yaml"));
  const HardwareProfile p = load_profile((dir / "a.yaml").string());
  CHECK(p.card == "H100");
  CHECK(p.engine.cpu_fixed_s.has_value());
  CHECK(p.engine_error.fit_points > 0);
  // The fitted profile answers `cost decode` with its engine terms.
  const auto answered = cost_json(
      "decode --model llama-2-70b --hardware H100 --tp 4 --batch 8 --context 512 "
      "--profile '" +
      (dir / "a.yaml").string() + "'");
  CHECK(answered["cpu_s"].get<double>() > 0.0);
}

TEST_CASE("rlsim calibrate --format serving rejects bad rows at their cell", "[cli][calibrate]") {
  const auto dir = test::scratch_dir("serving-bad");
  const auto out = dir / "p.yaml";
  const auto phase = test::run_rlsim(
      "calibrate --format serving --hardware H100 --input "
      "tests/data/serving/bad-phase.csv --out '" +
      out.string() + "'");
  CHECK(phase.exit_code == 2);
  CHECK(phase.err.find("bad-phase.csv:3:") != std::string::npos);
  CHECK(phase.err.find("expected phase 'prefill', 'decode' or 'generate'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  const auto card = test::run_rlsim(
      "calibrate --format serving --hardware A100 --input "
      "tests/data/serving/h100-iterations.csv --out '" +
      out.string() + "'");
  CHECK(card.exit_code == 2);
  CHECK(card.err.find("h100-iterations.csv:2:") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace rlsim
