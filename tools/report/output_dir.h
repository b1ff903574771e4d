// StagedOutput: writes a run's files into a hidden staging folder beside the target and moves them
// into place only when all were written, so a failed or interrupted run leaves no half-written
// output (docs/design.md §5). The target is checked when the object is made, before anything is
// simulated: `--out` naming a file, or a folder that cannot be created, is an input error. The
// folder then holds only this run's files from rlsim: a manifest (`.rlsim-outputs`) lists what the
// last run wrote, and on commit the files it listed that this run did not write are removed.
// Files rlsim did not write are never touched. A run stopped by a signal removes its staging
// folder (tools/report/interrupt_cleanup.h); those left by kill -9 are removed by the next run.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/input_error.h"  // OutputError

namespace rlsim {

/// Creates `folder` for outputs, or InputError at `flag` when it cannot be one: an existing file
/// of that name, a parent that is a file, no permission. Called before anything is simulated.
void prepare_output_folder(const std::filesystem::path& folder, const std::string& flag);
/// The same for an output file: not an existing folder nor a device, FIFO or socket (which the
/// rename that writes it would replace), and its folder created.
void prepare_output_file(const std::filesystem::path& file, const std::string& flag);
/// Writes `content` to `file` through a sibling "FILE.partial-PID" renamed into place once every
/// byte is written: a reader sees the old file or the whole new one. A short or failed write (a
/// full disk, a file-size limit) removes the partial file and throws OutputError naming the path,
/// the reason and that `file` was left as it was.
void replace_file_atomically(const std::filesystem::path& file, const std::string& content);
/// InputError at `flag` when `file` is one of `inputs` (the same file, however spelled): an output
/// must never replace what the run reads.
void refuse_overwriting_inputs(const std::filesystem::path& file, const std::vector<std::string>& inputs,
                               const std::string& flag);

/// InputError at `flag` when one of `inputs` (the run's scenario and the files it reads) lies in
/// `folder` under a name the run replaces: one of `written` (what the command writes at the top of
/// its folder), or one an earlier run listed in the folder's manifest, which the commit removes.
/// Called before simulating.
void refuse_inputs_replaced(const std::filesystem::path& folder, const std::vector<std::string>& inputs,
                            const std::vector<std::string>& written, const std::string& flag);

class StagedOutput {
 public:
  /// `flag` names the option the target came from, for error messages (e.g. "--out").
  explicit StagedOutput(std::filesystem::path target, std::string flag = "--out");
  ~StagedOutput();  ///< removes the staging folder if commit() was not reached
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  /// refuse_inputs_replaced for the target folder; `written` names what this command writes at its
  /// top (a file or a subfolder). Called before simulating.
  void refuse_replacing(const std::vector<std::string>& inputs,
                        const std::vector<std::string>& written) const;

  /// Stages `content` as `file_name`, which may name a subfolder ("policy/metrics.json"). Child
  /// processes may write too: whatever is in the staging folder at commit() is the output.
  void write(const std::string& file_name, const std::string& content);
  /// The same for a file too large to hold in memory: `writer` writes its content to the stream.
  void write_streamed(const std::string& file_name, const std::function<void(std::ostream&)>& writer);
  /// Moves every staged entry into the target folder (created if needed), replacing an entry of
  /// the same name, and removes the entries an earlier run listed in the folder's manifest that
  /// this run did not write.
  void commit();
  const std::filesystem::path& target() const { return target_; }
  /// The names written so far, in order (what `rlsim run` lists after "outputs:").
  const std::vector<std::string>& files() const { return files_; }

  /// The manifest's file name inside an output folder.
  static constexpr const char* kManifest = ".rlsim-outputs";

 private:
  void move_staged_into_target();

  std::filesystem::path target_;
  std::string flag_;
  std::filesystem::path staging_;
  std::vector<std::string> files_;
  bool committed_ = false;
};

}  // namespace rlsim
