// Fuzzes the recorded workloads a scenario replays: the first byte picks a serving request trace
// (CSV, even) or recorded RL trajectories (JSONL, odd), the rest is the file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/scenario/request_trace_reader.h"
#include "sim/scenario/trajectory_replay_reader.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    const std::string path = rlsim::fuzz::scratch_file(text, ".csv");
    rlsim::fuzz::expect_located([&] { rlsim::read_request_trace(path); });
  } else {
    const std::string path = rlsim::fuzz::scratch_file(text, ".jsonl");
    rlsim::fuzz::expect_located([&] { rlsim::read_trajectories_jsonl(path); });
  }
  return 0;
}
