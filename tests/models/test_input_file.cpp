// Input files: regular files of bounded size only, with the path in every error; the fingerprint
// of what was read follows contents, not paths or bookkeeping.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "models/input_error.h"
#include "models/input_file.h"

namespace fs = std::filesystem;
using rlsim::read_input_file;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("rlsim-input-file-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string error_of(const std::string& path, size_t max_bytes = rlsim::kMaxInputFileBytes) {
  try {
    read_input_file(path, max_bytes);
  } catch (const rlsim::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a device, a folder or a missing file is refused, naming the path") {
  CHECK_THAT(error_of("/dev/zero"), Catch::StartsWith("/dev/zero:") && Catch::Contains("not a regular file"));
  CHECK_THAT(error_of("/tmp"), Catch::Contains("is a folder"));
  CHECK_THAT(error_of("/no/such/file.yaml"),
             Catch::StartsWith("/no/such/file.yaml:") && Catch::Contains("no such file"));
}

TEST_CASE("a file over the size limit is refused and one at the limit is read whole") {
  const fs::path file = scratch("sized.yaml");
  std::ofstream(file) << std::string(4096, 'x');
  CHECK(read_input_file(file.string(), 4096).size() == 4096);
  CHECK_THAT(error_of(file.string(), 4095), Catch::Contains("larger than"));
}

TEST_CASE("the inputs fingerprint changes with a file's content, not with bookkeeping reads") {
  const fs::path a = scratch("a.yaml"), manifest = scratch("sweep.json");
  std::ofstream(a) << "content 1";
  read_input_file(a.string());
  const std::string first = rlsim::inputs_fingerprint();
  std::ofstream(manifest) << "{}";
  read_input_file(manifest.string(), rlsim::kMaxInputFileBytes, rlsim::InputRole::bookkeeping);
  CHECK(rlsim::inputs_fingerprint() == first);
  read_input_file(a.string());  // read again, same content
  CHECK(rlsim::inputs_fingerprint() == first);
  std::ofstream(a) << "content 2";
  read_input_file(a.string());
  CHECK(rlsim::inputs_fingerprint() != first);
  CHECK(rlsim::inputs_fingerprint().size() == 16);
}
