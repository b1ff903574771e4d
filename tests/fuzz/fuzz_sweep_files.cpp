// Fuzzes what a sweep reads back from its folder: the first byte picks the manifest (sweep.json)
// or the table (sweep.csv), the rest is the file.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "tests/fuzz/fuzz_input.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    static const std::filesystem::path dir =
        std::filesystem::path(rlsim::fuzz::scratch_file("", ".dir")).replace_extension(".sweep");
    std::filesystem::create_directories(dir);
    std::ofstream(rlsim::manifest_path(dir), std::ios::binary | std::ios::trunc) << text;
    rlsim::fuzz::expect_located([&] { rlsim::read_sweep_manifest(dir); });
  } else {
    const std::string path = rlsim::fuzz::scratch_file(text, ".csv");
    rlsim::fuzz::expect_located([&] { rlsim::read_sweep_csv(path); });
  }
  return 0;
}
