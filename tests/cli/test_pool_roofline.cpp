// `rlsim roofline --hardware H800:16,H20:16 [--model M]`: the weighted roofline of a mixed pool,
// checked against the catalog's datasheet figures summed by hand, and its errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/scenario/catalog.h"
#include "tests/cli/cli_support.h"

using namespace rlsim;
using namespace rlsim::test;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;
using nlohmann::json;

TEST_CASE("roofline of a mixed pool sums peaks and bandwidths and attains each card's own roof") {
  const CliResult r = run_rlsim("roofline --hardware H800:16,H20:16 --json");
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const HardwareSpec h800 = catalog.card("H800", {"test", 0, 0});
  const HardwareSpec h20 = catalog.card("H20", {"test", 0, 0});
  const double peak = 16 * *h800.peak(Precision::bf16) + 16 * *h20.peak(Precision::bf16);
  const double bandwidth = 16 * h800.mem_bw_bytes_per_s + 16 * h20.mem_bw_bytes_per_s;
  CHECK_THAT(j["peak_flops"].get<double>(), WithinRel(peak, 1e-12));
  CHECK_THAT(j["mem_bw_bytes_per_s"].get<double>(), WithinRel(bandwidth, 1e-12));
  CHECK_THAT(j["ridge_flop_per_byte"].get<double>(), WithinRel(peak / bandwidth, 1e-12));
  REQUIRE(j["attainable"].size() > 3);
  double last_ai = 0.0;
  for (const auto& point : j["attainable"]) {
    const double ai = point["arithmetic_intensity"].get<double>();
    const double by_hand = 16 * std::min(*h800.peak(Precision::bf16), ai * h800.mem_bw_bytes_per_s) +
                           16 * std::min(*h20.peak(Precision::bf16), ai * h20.mem_bw_bytes_per_s);
    CHECK_THAT(point["flops_per_s"].get<double>(), WithinRel(by_hand, 1e-12));
    last_ai = ai;
  }
  // The grid reaches past both cards' ridges: the pool's last point is its full peak.
  CHECK(last_ai >= *h800.peak(Precision::bf16) / h800.mem_bw_bytes_per_s);
  CHECK_THAT(j["attainable"].back()["flops_per_s"].get<double>(), WithinRel(peak, 1e-12));
}

TEST_CASE("roofline of a mixed pool with a model places each module on the pool") {
  const CliResult r = run_rlsim("roofline --hardware H800:16,H20:16 --model qwen3-8b --batch 64 --json");
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["modules"].size() > 3);
  for (const auto& m : j["modules"]) {
    INFO(m["name"]);
    CHECK(m["bound"].contains("H800"));
    CHECK(m["bound"].contains("H20"));
    CHECK(m["pool_flops_per_s"].get<double>() <= j["peak_flops"].get<double>() * (1 + 1e-12));
    CHECK_THAT(m["seconds"].get<double>(),
               WithinRel(m["flops"].get<double>() / m["pool_flops_per_s"].get<double>(), 1e-12));
  }
  const CliResult text = run_rlsim("roofline --hardware H800:16,H20:16 --model qwen3-8b --batch 64");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Contains("Mixed pool H800 x16 + H20 x16 at bf16") && Contains("ffn") &&
                           Contains("bound per card"));
}

TEST_CASE("roofline of a mixed pool refuses bad counts and unknown cards with exit 2") {
  const CliResult zero = run_rlsim("roofline --hardware H800:0,H20:16");
  CHECK(zero.exit_code == 2);
  CHECK_THAT(zero.err, Contains("--hardware") && Contains("H800:0"));
  const CliResult unknown = run_rlsim("roofline --hardware H801:4,H20:16");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.empty());
}
