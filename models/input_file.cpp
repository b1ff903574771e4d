// Bounded reading of user-named input files.
#include "models/input_file.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>
#include <vector>

#include "models/input_error.h"

namespace rlsim {
namespace fs = std::filesystem;
namespace {

uint64_t fnv1a(std::string_view bytes, uint64_t hash = 14695981039346656037ull) {
  for (unsigned char byte : bytes) hash = (hash ^ byte) * 1099511628211ull;
  return hash;
}

/// Path → content hash of every file read, ordered so the fingerprint does not depend on the order.
std::map<std::string, uint64_t>& files_read() {
  static std::map<std::string, uint64_t> files;
  return files;
}

}  // namespace

std::string read_input_file(const std::string& path, size_t max_bytes, InputRole role) {
  const SourceLocation where{path, 0, 0};
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) throw InputError(where, "no such file (check the path)");
  if (fs::is_directory(status)) throw InputError(where, "is a folder; expected a file");
  if (!fs::is_regular_file(status))
    throw InputError(where, "is not a regular file (a device, pipe or socket); expected a file");
  const auto too_large = [&] {
    return InputError(where, "is larger than " + std::to_string(max_bytes >> 20) +
                                 " MiB, the most rlsim reads from one input file");
  };
  if (fs::file_size(path, error) > max_bytes && !error) throw too_large();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where, "cannot open file (is it readable?)");
  std::string text;
  char buffer[1 << 16];
  // Bounded even if the file grows while it is read.
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes) throw too_large();
  }
  if (in.bad()) throw InputError(where, "cannot read file (an I/O error)");
  if (role == InputRole::simulation) files_read()[fs::weakly_canonical(path, error).string()] = fnv1a(text);
  return text;
}

std::string inputs_fingerprint() {
  // Contents only: the same files reached by other paths (another checkout, a shard's working
  // folder) simulate the same points.
  std::vector<uint64_t> contents;
  for (const auto& [path, content] : files_read()) contents.push_back(content);
  std::sort(contents.begin(), contents.end());
  uint64_t hash = fnv1a("");
  for (uint64_t content : contents) hash = fnv1a(std::to_string(content), hash);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace rlsim
