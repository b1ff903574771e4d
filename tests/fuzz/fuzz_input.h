// What every fuzz harness shares: the contract it checks and a scratch file for loaders that take
// a path. The contract: input problems are InputError with a location (FILE:LINE:COL, line ≥ 1);
// anything else that escapes — another exception, a crash, a sanitizer report, a hang — is a
// finding (libFuzzer stops and saves the input).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "models/input_error.h"

namespace rlsim::fuzz {

/// A file of this process holding `bytes` (the loaders read paths).
inline std::string scratch_file(const std::string& bytes, const char* extension) {
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/rlsim-fuzz-" + std::to_string(::getpid()) + extension;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

/// Runs `load`; an InputError must name a line, anything else is left to escape (a finding).
template <class Load>
void expect_located(Load&& load) {
  try {
    load();
  } catch (const InputError& e) {
    if (e.where().line < 1) {
      std::fprintf(stderr, "input error without a line: %s\n", e.what());
      std::abort();
    }
  }
}

}  // namespace rlsim::fuzz
