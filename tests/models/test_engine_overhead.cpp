// Engine time beyond kernels (models/timing/engine_overhead.h) against hand-computed values: CPU
// work fixed + per sequence + per token, graph gaps per layer when the iteration replays a CUDA
// graph, eager launch gaps only where launching outlasts the kernels, CPU overlapped or not, and
// a profile's override replacing only the terms it sets.
#include <catch2/catch.hpp>

#include "models/timing/engine_overhead.h"

using namespace rlsim;

namespace {

EngineOverhead engine() {
  EngineOverhead e;
  e.name = "test";
  e.cpu_fixed_s = 1e-3;
  e.cpu_per_sequence_s = 1e-5;
  e.cpu_per_token_s = 1e-6;
  e.launch_gap_per_layer_s = 50e-6;
  e.graph_gap_per_layer_s = 5e-6;
  e.graph_max_tokens = 256;
  return e;
}

}  // namespace

TEST_CASE("engine overhead: the ideal engine adds nothing to kernels and all-reduces") {
  const IterationTerms t = iteration_terms(EngineOverhead{}, IterationShape{80, 64, 64, false}, 0.01, 0.002);
  CHECK(t.total_s() == 0.012);
  CHECK(t.cpu_s == 0.0);
  CHECK(t.launch_s == 0.0);
}

TEST_CASE("engine overhead: a decode iteration in a CUDA graph pays the graph gap of every layer") {
  // 64 sequences, 64 tokens: CPU 1 ms + 64 × 10 µs + 64 × 1 µs = 1.704 ms; graph gaps 80 × 5 µs.
  const IterationTerms t = iteration_terms(engine(), IterationShape{80, 64, 64, false}, 0.01, 0.002);
  CHECK(t.cuda_graph);
  CHECK(t.launch_s == Approx(400e-6));
  CHECK(t.cpu_s == Approx(1.704e-3));
  CHECK(t.total_s() == Approx(0.012 + 400e-6 + 1.704e-3));
}

TEST_CASE("engine overhead: eager launches cost only what the kernels do not hide") {
  EngineOverhead e = engine();
  e.cpu_fixed_s = e.cpu_per_sequence_s = e.cpu_per_token_s = 0.0;
  // 1000 tokens run eagerly (past graph_max_tokens). Launching 80 layers takes 4 ms.
  const IterationShape shape{80, 1, 1000, true};
  CHECK_FALSE(iteration_terms(e, shape, 0.010, 0.0).cuda_graph);
  CHECK(iteration_terms(e, shape, 0.010, 0.0).launch_s == 0.0);           // 10 ms of kernels hide it
  CHECK(iteration_terms(e, shape, 0.003, 0.0).launch_s == Approx(1e-3));  // 3 ms do not: 1 ms idle
  // Prefill tokens use graphs only when the engine captures mixed batches.
  CHECK_FALSE(iteration_terms(e, IterationShape{80, 2, 100, true}, 0.01, 0.0).cuda_graph);
  e.graph_mixed = true;
  CHECK(iteration_terms(e, IterationShape{80, 2, 100, true}, 0.01, 0.0).cuda_graph);
}

TEST_CASE("engine overhead: overlapped CPU work costs only where it outlasts the GPU") {
  EngineOverhead e = engine();
  e.overlap_cpu = true;
  const IterationShape shape{80, 64, 64, false};
  CHECK(iteration_terms(e, shape, 0.01, 0.0).total_s() == Approx(0.0104));      // GPU 10.4 ms > CPU
  CHECK(iteration_terms(e, shape, 0.0005, 0.0).total_s() == Approx(1.704e-3));  // CPU-bound
}

TEST_CASE("engine overhead: a profile's override replaces only the terms it measured") {
  EngineOverheadOverride o;
  CHECK(o.empty());
  o.cpu_fixed_s = 2e-3;
  o.graph_gap_per_layer_s = 1e-6;
  const EngineOverhead e = o.applied_to(engine());
  CHECK(e.cpu_fixed_s == 2e-3);
  CHECK(e.graph_gap_per_layer_s == 1e-6);
  CHECK(e.cpu_per_sequence_s == 1e-5);
  CHECK(e.launch_gap_per_layer_s == 50e-6);
  CHECK(e.graph_max_tokens == 256);
}
