// Planning a serving benchmark's requests (sim/engine/serving/request_stream.h) without SimGrid:
// tokens drawn per request, Poisson arrivals, trace rows as they are.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "sim/engine/serving/request_stream.h"

using namespace rlsim;

namespace {

/// A closed loop of `requests` over `clients`, prompts of 50 to 150 tokens drawn uniformly.
ServeWorkloadSpec closed_loop_of_varied_prompts(int requests, int clients) {
  ServeWorkloadSpec w;
  w.requests = requests;
  w.concurrency = clients;
  w.prompt_tokens.kind = Distribution::Kind::uniform;
  w.prompt_tokens.low = 50.0;
  w.prompt_tokens.high = 150.0;
  return w;
}

}  // namespace

TEST_CASE("request plans: a trace's rows as they are, ids in order") {
  ServeWorkloadSpec w;
  w.arrivals = ArrivalMode::trace;
  w.trace = {{0.0, 10, 2}, {0.5, 20, 1}, {0.5, 30, 7}};
  w.requests = 3;
  std::mt19937_64 rng(1);
  const auto plan = plan_requests(w, rng);
  REQUIRE(plan.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(plan[i].id == static_cast<int>(i));
    CHECK(plan[i].arrival_s == w.trace[i].arrival_s);
    CHECK(plan[i].prompt_tokens == w.trace[i].prompt_tokens);
    CHECK(plan[i].output_tokens == w.trace[i].output_tokens);
  }
}

TEST_CASE(
    "request plans: the closed loop has no arrival times and tokens are whole with outputs at least one") {
  ServeWorkloadSpec w;
  w.requests = 200;
  w.concurrency = 4;
  w.prompt_tokens.kind = Distribution::Kind::uniform;
  w.prompt_tokens.low = 0.0;
  w.prompt_tokens.high = 50.0;
  w.output_tokens = w.prompt_tokens;
  std::mt19937_64 rng(7);
  for (const PlannedRequest& r : plan_requests(w, rng)) {
    CHECK(r.arrival_s == 0.0);
    CHECK(r.prompt_tokens == std::round(r.prompt_tokens));
    CHECK(r.output_tokens >= 1.0);
  }
}

TEST_CASE("request plans: Poisson arrivals start at 0 with mean gap 1 / rate, the same for the same seed") {
  ServeWorkloadSpec w;
  w.arrivals = ArrivalMode::poisson;
  w.rate_per_s = 50.0;
  w.requests = 20000;
  std::mt19937_64 a(11), b(11);
  const auto plan = plan_requests(w, a);
  CHECK(plan.front().arrival_s == 0.0);
  // 19999 gaps: the mean is within 3 standard errors (3 / sqrt(19999) relative).
  CHECK((plan.size() - 1) / plan.back().arrival_s == Approx(50.0).epsilon(3.0 / std::sqrt(19999.0)));
  const auto again = plan_requests(w, b);
  CHECK(again.back().arrival_s == plan.back().arrival_s);
}

TEST_CASE("request plans: a shared prefix goes round the system prompts, at most the prompt less one token") {
  ServeWorkloadSpec w = closed_loop_of_varied_prompts(5, 1);
  w.shared_prefix_tokens = 100;
  w.shared_prefix_groups = 3;
  std::mt19937_64 rng(5);
  const auto plan = plan_requests(w, rng);
  for (const PlannedRequest& r : plan) {
    CHECK(r.prefix_group == r.id % 3);
    CHECK(r.shared_prefix_tokens == std::min(100.0, r.prompt_tokens - 1.0));
  }
  // Without one, no request has a group (and the draws are the same).
  w.shared_prefix_tokens = 0;
  std::mt19937_64 again(5);
  const auto plain = plan_requests(w, again);
  for (size_t i = 0; i < plain.size(); ++i) {
    CHECK(plain[i].prefix_group == -1);
    CHECK(plain[i].shared_prefix_tokens == 0.0);
    CHECK(plain[i].prompt_tokens == plan[i].prompt_tokens);
  }
}

TEST_CASE("request plans: a prompt pool draws whole prompts with replacement, each entry one length") {
  ServeWorkloadSpec w = closed_loop_of_varied_prompts(200, 4);
  w.prompt_pool = 20;
  std::mt19937_64 rng(5);
  const auto plan = plan_requests(w, rng);
  std::map<int, double> length_of;
  std::set<int> drawn;
  int repeats = 0;
  for (const PlannedRequest& r : plan) {
    REQUIRE(r.prefix_group >= 0);
    CHECK(r.prefix_group < 20);
    // All of the prompt but its last token is the entry's, so a cached entry leaves one to compute.
    CHECK(r.shared_prefix_tokens == r.prompt_tokens - 1.0);
    const auto [it, first] = length_of.emplace(r.prefix_group, r.prompt_tokens);
    CHECK(it->second == r.prompt_tokens);  // an entry drawn again is the same prompt
    repeats += first ? 0 : 1;
    drawn.insert(r.prefix_group);
  }
  // 200 draws from 20 entries: every entry drawn (the chance one is missed is 20 x 0.95^200, 7e-4,
  // and this seed is fixed), most draws repeats.
  CHECK(drawn.size() == 20);
  CHECK(repeats == 180);
  // With replacement: some neighbours draw the same entry, which a round robin never does.
  int same_as_previous = 0;
  for (size_t i = 1; i < plan.size(); ++i)
    same_as_previous += plan[i].prefix_group == plan[i - 1].prefix_group;
  CHECK(same_as_previous > 0);
  // The pool draws from its own stream: without it the output lengths are the same draws.
  w.prompt_pool = 0;
  std::mt19937_64 again(5);
  const auto plain = plan_requests(w, again);
  for (size_t i = 0; i < plain.size(); ++i) {
    CHECK(plain[i].prefix_group == -1);
    CHECK(plain[i].output_tokens == plan[i].output_tokens);
  }
  // Same seed, same plan.
  w.prompt_pool = 20;
  std::mt19937_64 same(5);
  const auto replay = plan_requests(w, same);
  for (size_t i = 0; i < plan.size(); ++i) {
    CHECK(replay[i].prefix_group == plan[i].prefix_group);
    CHECK(replay[i].prompt_tokens == plan[i].prompt_tokens);
  }
}
