// A mixed iteration as one forward pass (models/timing/forward_batch_time.h): decode-only and
// single-chunk batches equal the decode and prefill formulas; a mixed batch reads the weights once,
// so it costs less than its parts run apart and more than the larger part; the TP all-reduce takes
// a measured alpha-beta fit when given.
#include <catch2/catch.hpp>

#include "models/cost/roofline_cost_model.h"
#include "models/timing/forward_batch_time.h"
#include "models/timing/inference_time.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;

TEST_CASE("forward batch: decode-only and single-prefill batches are the existing formulas") {
  const ModelArch m = test::llama2_7b();
  const HardwareSpec h = test::h100();
  const RooflineCostModel cost;
  const ForwardBatch decode{32, 1000.0, {}};
  CHECK(forward_batch_seconds(m, h, cost, decode, 2, Precision::bf16, Precision::bf16) ==
        decode_iteration_seconds(m, h, cost, 32, 1000.0, 2, Precision::bf16, Precision::bf16));
  const ForwardBatch prefill{0, 0.0, {{512, 100}}};
  CHECK(forward_batch_seconds(m, h, cost, prefill, 2, Precision::bf16, Precision::bf16) ==
        prefill_seconds(m, h, cost, 512, 100, 2, Precision::bf16));
}

TEST_CASE("forward batch: a mixed iteration reads the weights once") {
  const ModelArch m = test::llama2_7b();
  const HardwareSpec h = test::h100();
  const RooflineCostModel cost;
  auto seconds = [&](const ForwardBatch& b) {
    return forward_batch_seconds(m, h, cost, b, 1, Precision::bf16, Precision::bf16);
  };
  const double decode = seconds(ForwardBatch{32, 1000.0, {}});
  const double chunk = seconds(ForwardBatch{0, 0.0, {{64, 0}}});
  const double mixed = seconds(ForwardBatch{32, 1000.0, {{64, 0}}});
  // Both parts are weight-bound at these sizes: apart they read 13 GB of weights twice.
  CHECK(mixed < 0.75 * (decode + chunk));
  CHECK(mixed > std::max(decode, chunk));
  // Several prompts in one pass cost less than each alone, summed.
  const double two = seconds(ForwardBatch{0, 0.0, {{64, 0}, {64, 0}}});
  CHECK(two < 2.0 * chunk);
  CHECK(two > chunk);
}

TEST_CASE("forward batch: TP all-reduce by the ring, or by a measured fit") {
  const ModelArch m = test::llama2_7b();
  const LinkSpec link{100e9, 1e-6};
  // As InstanceTime's test: 100 tokens on TP 2, 64 all-reduces of 819200 B: 652.288 µs.
  CHECK(tp_allreduce_seconds(m, 100.0, 2, link) == Approx(652.288e-6).epsilon(1e-12));
  CHECK(tp_allreduce_seconds(m, 100.0, 1, link) == 0.0);
  CollectiveFit fit;
  fit.gpus = 2;
  fit.gpus_per_node = 2;
  fit.alpha_s = 20e-6;
  fit.bandwidth_bytes_per_s = 200e9;
  // 64 × (20 µs + 819200 B / 200 GB/s) = 64 × 24.096 µs.
  CHECK(tp_allreduce_seconds(m, 100.0, 2, link, &fit) == Approx(64 * 24.096e-6).epsilon(1e-9));
}
