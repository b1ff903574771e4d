// Staged output writing.
#include "tools/report/output_dir.h"

#include <unistd.h>

#include <fstream>
#include <stdexcept>

namespace rlsim {
namespace fs = std::filesystem;

StagedOutput::StagedOutput(fs::path target) : target_(std::move(target)) {
  fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  if (target_.filename().empty()) target_ = target_.parent_path();
  staging_ = parent / ("." + target_.filename().string() + ".partial-" + std::to_string(::getpid()));
  fs::create_directories(staging_);
}

StagedOutput::~StagedOutput() {
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void StagedOutput::write(const std::string& file_name, const std::string& content) {
  std::ofstream out(staging_ / file_name, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + (staging_ / file_name).string());
  files_.push_back(file_name);
}

void StagedOutput::commit() {
  fs::create_directories(target_);
  for (const auto& entry : fs::directory_iterator(staging_)) {
    fs::rename(entry.path(), target_ / entry.path().filename());
  }
  committed_ = true;
}

}  // namespace rlsim
