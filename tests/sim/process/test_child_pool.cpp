// Child processes: replies of any size arrive whole, input errors stay input errors, and a child
// that dies is reported, never mistaken for a success.
#include <catch2/catch.hpp>
#include <csignal>
#include <map>
#include <string>

#include "models/input_error.h"
#include "sim/process/child_pool.h"

namespace {

using rlsim::ChildOutcome;

std::map<long, ChildOutcome> run_all(const std::vector<long>& jobs, int parallel,
                                     const std::function<std::string(long)>& work,
                                     ChildOutcome* failure = nullptr) {
  std::map<long, ChildOutcome> outcomes;
  const ChildOutcome first_failure = rlsim::run_in_children(
      jobs, parallel, work, [&](const ChildOutcome& done) { outcomes[done.job] = done; });
  if (failure) *failure = first_failure;
  return outcomes;
}

}  // namespace

TEST_CASE("child replies far larger than a pipe's buffer arrive whole") {
  // 64 KiB fills a Linux pipe: a parent that waits for the child before reading deadlocks here.
  const auto outcomes = run_all({1, 2, 3}, 3, [](long job) {
    return std::string(static_cast<size_t>(job) * (1 << 20), static_cast<char>('a' + job));
  });
  REQUIRE(outcomes.size() == 3);
  for (const auto& [job, outcome] : outcomes) {
    CHECK(outcome.ok);
    CHECK(outcome.text.size() == static_cast<size_t>(job) * (1 << 20));
    CHECK(outcome.text.find_first_not_of(static_cast<char>('a' + job)) == std::string::npos);
  }
}

TEST_CASE("more jobs than parallel slots all run, each reply with its own job") {
  std::vector<long> jobs;
  for (long j = 0; j < 9; ++j) jobs.push_back(j);
  const auto outcomes = run_all(jobs, 2, [](long job) { return std::to_string(job * job); });
  REQUIRE(outcomes.size() == 9);
  for (const auto& [job, outcome] : outcomes) CHECK(outcome.text == std::to_string(job * job));
}

TEST_CASE("a child's input error comes back as an input error with its text") {
  ChildOutcome failure;
  run_all(
      {7}, 1,
      [](long) -> std::string {
        throw rlsim::InputError({"f.yaml", 3, 4}, "bad value");
      },
      &failure);
  CHECK_FALSE(failure.ok);
  CHECK(failure.input_error);
  CHECK(failure.job == 7);
  CHECK(failure.text == "f.yaml:3:4: error: bad value");
}

TEST_CASE("a child killed by a signal is a failure that says so, not a success") {
  ChildOutcome failure;
  run_all(
      {4}, 1,
      [](long) -> std::string {
        std::raise(SIGKILL);
        return "unreachable";
      },
      &failure);
  CHECK_FALSE(failure.ok);
  CHECK_FALSE(failure.input_error);
  CHECK_THAT(failure.text, Catch::Contains("signal 9"));
}
