// Fuzzes the scenario loaders (rl and afd kinds) with `--set` overrides. Input: the scenario text,
// then optionally a NUL byte and `--set` assignments, one per line (at most 8).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "sim/scenario/afd_reader.h"
#include "sim/scenario/scenario_loader.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const size_t split = bytes.find('\0');
  rlsim::LoadOptions options;
  options.data_dir = RLSIM_FUZZ_SOURCE_DIR;
  if (split != std::string::npos) {
    std::istringstream sets(bytes.substr(split + 1));
    for (std::string line; std::getline(sets, line) && options.overrides.size() < 8;) {
      if (!line.empty()) options.overrides.push_back(line);
    }
  }
  const std::string path = rlsim::fuzz::scratch_file(bytes.substr(0, split), ".yaml");
  rlsim::fuzz::expect_located([&] {
    if (rlsim::scenario_kind(path, options, {"rl", "afd"}) == "afd") {
      rlsim::load_afd_scenario(path, options);
    } else {
      rlsim::load_scenario(path, options);
    }
  });
  return 0;
}
