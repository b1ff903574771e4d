// StagedOutput: writes a run's files into a hidden staging folder beside the target and moves them
// into place only when all were written, so a failed or interrupted run leaves no half-written
// output (docs/design.md §5). Files already in the target folder with other names are left alone.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rlsim {

class StagedOutput {
 public:
  explicit StagedOutput(std::filesystem::path target);
  ~StagedOutput();  ///< removes the staging folder if commit() was not reached
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  void write(const std::string& file_name, const std::string& content);
  /// Moves every staged file into the target folder (created if needed).
  void commit();
  const std::filesystem::path& target() const { return target_; }
  /// The names written so far, in order (what `rlsim run` lists after "outputs:").
  const std::vector<std::string>& files() const { return files_; }

 private:
  std::filesystem::path target_;
  std::filesystem::path staging_;
  std::vector<std::string> files_;
  bool committed_ = false;
};

}  // namespace rlsim
