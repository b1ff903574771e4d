// Workload sampling (sim/engine/workload.h): one step's trajectories drawn from the scenario's
// distributions. Pure functions of the workload and the random engine, so no SimGrid engine and no
// child process: the same seed gives the same step, counts follow the GRPO group shape, caps hold,
// later turns take the observation and tool distributions, and the context limit ends a trajectory.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "sim/engine/workload.h"

using namespace rlsim;

namespace {

Distribution fixed(double value) {
  Distribution d;
  d.kind = Distribution::Kind::fixed;
  d.value = value;
  return d;
}

Distribution uniform(double low, double high) {
  Distribution d;
  d.kind = Distribution::Kind::uniform;
  d.low = low;
  d.high = high;
  return d;
}

Distribution lognormal(double mean, double sigma) {
  Distribution d;
  d.kind = Distribution::Kind::lognormal;
  d.mean = mean;
  d.spread = sigma;
  return d;
}

// A multi-turn workload where every quantity is random: 16 prompts of a group of 4.
WorkloadSpec random_workload() {
  WorkloadSpec w;
  w.prompts_per_step = 16;
  w.samples_per_prompt = 4;
  w.turns = uniform(1, 4);
  w.prompt_tokens = lognormal(1000, 0.5);
  w.output_tokens = lognormal(500, 1.0);
  w.observation_tokens = uniform(20, 200);
  w.tool_latency_s = uniform(0.5, 3.0);
  return w;
}

std::vector<Trajectory> sample_with_seed(const WorkloadSpec& w, uint64_t seed, int first_id = 0) {
  std::mt19937_64 rng(seed);
  return sample_step(w, rng, first_id);
}

bool same_calls(const Trajectory& a, const Trajectory& b) {
  if (a.id != b.id || a.calls.size() != b.calls.size()) return false;
  for (size_t i = 0; i < a.calls.size(); ++i) {
    const LlmCall &x = a.calls[i], &y = b.calls[i];
    if (x.prompt_tokens != y.prompt_tokens || x.context_tokens != y.context_tokens ||
        x.output_tokens != y.output_tokens || x.tool_latency_s != y.tool_latency_s)
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a step's trajectories are the same for the same seed and differ for another") {
  const WorkloadSpec w = random_workload();
  const auto first = sample_with_seed(w, 42), again = sample_with_seed(w, 42),
             other = sample_with_seed(w, 43);
  REQUIRE(first.size() == again.size());
  for (size_t i = 0; i < first.size(); ++i) CHECK(same_calls(first[i], again[i]));
  REQUIRE(other.size() == first.size());
  size_t differing = 0;
  for (size_t i = 0; i < first.size(); ++i) differing += same_calls(first[i], other[i]) ? 0 : 1;
  CHECK(differing == first.size());  // continuous distributions: no trajectory comes out the same
}

TEST_CASE("a step holds prompts x samples per prompt trajectories, numbered on from the first id") {
  WorkloadSpec w = random_workload();
  w.prompts_per_step = 5;
  w.samples_per_prompt = 3;
  const auto trajectories = sample_with_seed(w, 7, 100);
  REQUIRE(trajectories.size() == 15);
  for (size_t i = 0; i < trajectories.size(); ++i) {
    CHECK(trajectories[i].id == 100 + static_cast<int>(i));
    CHECK_FALSE(trajectories[i].calls.empty());
  }
}

TEST_CASE("token counts are whole, outputs at least one token, and a distribution's caps hold") {
  WorkloadSpec w = random_workload();
  w.prompts_per_step = 64;
  w.output_tokens.min = 100;
  w.output_tokens.max = 1000;
  w.turns = uniform(0.0, 0.4);  // rounds to 0 turns: every trajectory still makes one call
  int at_floor = 0, at_cap = 0;
  for (const Trajectory& t : sample_with_seed(w, 3)) {
    REQUIRE(t.calls.size() == 1);
    const LlmCall& call = t.calls.front();
    CHECK(call.prompt_tokens == std::round(call.prompt_tokens));
    CHECK(call.output_tokens == std::round(call.output_tokens));
    CHECK(call.output_tokens >= 100);
    CHECK(call.output_tokens <= 1000);
    CHECK(call.tool_latency_s == 0.0);  // no tool after the last call
    at_floor += call.output_tokens == 100 ? 1 : 0;
    at_cap += call.output_tokens == 1000 ? 1 : 0;
  }
  // sigma 1 around 500 tokens puts about an eighth of 256 draws beyond each cap: they were applied.
  CHECK(at_floor > 10);
  CHECK(at_cap > 10);
  // A draw that rounds to zero output tokens still generates one.
  w.output_tokens = fixed(0.2);
  CHECK(sample_with_seed(w, 3).front().calls.front().output_tokens == 1.0);
}

TEST_CASE("a long-tailed draw is cut at the quantity's physical limit") {
  Distribution tail;
  tail.kind = Distribution::Kind::lognormal;
  tail.mean = 1e7;    // the largest mean the reader allows is the limit itself
  tail.spread = 2.0;  // about 1.6% of draws land above 10^8
  tail.limit = 1e8;
  std::mt19937_64 rng(7);
  int at_limit = 0;
  for (int i = 0; i < 1000; ++i) {
    const double value = sample(tail, rng);
    CHECK(value <= 1e8);
    at_limit += value == 1e8 ? 1 : 0;
  }
  CHECK(at_limit > 0);  // some draws passed the limit: it was applied
  tail.limit = 0.0;     // no limit: they pass
  std::mt19937_64 again(7);
  double largest = 0.0;
  for (int i = 0; i < 1000; ++i) largest = std::max(largest, sample(tail, again));
  CHECK(largest > 1e8);
}

// A GRPO group answers one prompt, but the sampler draws each trajectory's prompt length on its
// own: members of a group do not share it. Tying them together would change every bundled
// scenario's figures, so it is a behaviour change to make on purpose, with this test.
TEST_CASE("each trajectory draws its own prompt length, also within one prompt's group") {
  WorkloadSpec w = random_workload();
  w.turns = fixed(1);
  w.prompt_tokens = uniform(100, 10000);
  const auto trajectories = sample_with_seed(w, 11);
  int groups_sharing_one_length = 0;
  for (size_t group = 0; group < static_cast<size_t>(w.prompts_per_step); ++group) {
    const size_t first = group * static_cast<size_t>(w.samples_per_prompt);
    bool all_same = true;
    for (size_t member = 1; member < static_cast<size_t>(w.samples_per_prompt); ++member) {
      all_same = all_same && trajectories[first + member].calls.front().prompt_tokens ==
                                 trajectories[first].calls.front().prompt_tokens;
    }
    groups_sharing_one_length += all_same ? 1 : 0;
  }
  CHECK(groups_sharing_one_length == 0);
}

TEST_CASE("later turns prefill the observation, tools run between calls, and the context grows") {
  WorkloadSpec w;
  w.prompts_per_step = 8;
  w.turns = fixed(3);
  w.prompt_tokens = fixed(1000);
  w.output_tokens = fixed(200);
  w.observation_tokens = fixed(50);
  w.tool_latency_s = uniform(2.0, 5.0);
  for (const Trajectory& t : sample_with_seed(w, 5)) {
    REQUIRE(t.calls.size() == 3);
    CHECK(t.calls[0].prompt_tokens == 1000);
    CHECK(t.calls[1].prompt_tokens == 50);
    CHECK(t.calls[2].prompt_tokens == 50);
    double context = 0.0;
    for (const LlmCall& call : t.calls) {
      CHECK(call.context_tokens == context);
      context += call.prompt_tokens + call.output_tokens;
    }
    for (size_t i = 0; i + 1 < t.calls.size(); ++i) {
      CHECK(t.calls[i].tool_latency_s >= 2.0);
      CHECK(t.calls[i].tool_latency_s <= 5.0);
    }
    CHECK(t.calls.back().tool_latency_s == 0.0);
    CHECK(t.generated_tokens() == 600);
  }
  // The latencies are drawn, not fixed: two tools of one trajectory take different times.
  const Trajectory t = sample_with_seed(w, 5).front();
  CHECK(t.calls[0].tool_latency_s != t.calls[1].tool_latency_s);
}

namespace {

/// Ten turns of a 1000-token prompt, 500-token replies and 100-token observations, tools of 1 s:
/// contexts of 1500, 2100, 2700, … tokens after each call.
WorkloadSpec ten_fixed_turns() {
  WorkloadSpec w;
  w.turns = fixed(10);
  w.prompt_tokens = fixed(1000);
  w.output_tokens = fixed(500);
  w.observation_tokens = fixed(100);
  w.tool_latency_s = fixed(1.0);
  return w;
}

/// The context a trajectory holds once `call` has replied.
double context_after(const LlmCall& call) {
  return call.context_tokens + call.prompt_tokens + call.output_tokens;
}

}  // namespace

TEST_CASE("a trajectory reaching max_context_tokens ends there, its last reply cut at the limit") {
  WorkloadSpec w = ten_fixed_turns();
  // Contexts after each call: 1500, 2100, then 2700 > 2500: the third reply is cut to 300 tokens.
  w.max_context_tokens = 2500;
  Trajectory t = sample_with_seed(w, 1).front();
  REQUIRE(t.calls.size() == 3);
  CHECK(t.calls[2].output_tokens == 300);
  CHECK(context_after(t.calls[2]) == 2500);
  CHECK(t.calls[2].tool_latency_s == 0.0);  // no tool after the call that filled the context
  CHECK(t.calls[1].tool_latency_s == 1.0);
  // A limit the next observation alone fills leaves no room for a reply: that call is not made.
  w.max_context_tokens = 2200;
  t = sample_with_seed(w, 1).front();
  REQUIRE(t.calls.size() == 2);
  CHECK(context_after(t.calls[1]) == 2100);
  // No limit: all ten turns.
  w.max_context_tokens = 0;
  CHECK(sample_with_seed(w, 1).front().calls.size() == 10);
}

TEST_CASE("a trajectory also ends at the engine's max_model_len, the smaller of the two limits binding") {
  WorkloadSpec w = ten_fixed_turns();
  // The engine's window alone: the third reply is cut at 2500 as with max_context_tokens 2500.
  w.max_model_len = 2500;
  Trajectory t = sample_with_seed(w, 1).front();
  REQUIRE(t.calls.size() == 3);
  CHECK(context_after(t.calls[2]) == 2500);
  // A shorter max_context_tokens binds first; a longer one leaves the window binding.
  w.max_context_tokens = 2200;
  CHECK(sample_with_seed(w, 1).front().calls.size() == 2);
  w.max_context_tokens = 4000;
  CHECK(sample_with_seed(w, 1).front().calls.size() == 3);
  CHECK(w.context_limit_tokens() == 2500);
}
