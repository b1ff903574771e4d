// Staged output writing: target checks, staging, the manifest of what rlsim wrote, orphan cleanup.
#include "tools/report/output_dir.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "models/input_error.h"
#include "tools/report/interrupt_cleanup.h"

namespace rlsim {
namespace fs = std::filesystem;
namespace {

/// The staging folders of `target` are ".NAME.partial-PID" beside it.
std::string staging_prefix(const fs::path& target) { return "." + target.filename().string() + ".partial-"; }

bool process_alive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

/// Removes the staging folders of `target` whose process is gone (a run killed before its
/// destructor could clean up).
void remove_orphaned_staging(const fs::path& parent, const fs::path& target) {
  const std::string prefix = staging_prefix(target);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(parent, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.empty() ||
        !std::all_of(pid_text.begin(), pid_text.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
      continue;
    if (pid_text.size() > 9 || process_alive(std::stol(pid_text))) continue;
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

std::vector<std::string> read_manifest(const fs::path& folder) {
  std::vector<std::string> names;
  std::ifstream in(folder / StagedOutput::kManifest);
  for (std::string line; std::getline(in, line);) {
    // Only plain names this class wrote: never a path that leaves the folder.
    if (!line.empty() && line.find('/') == std::string::npos && line != "." && line != "..")
      names.push_back(line);
  }
  return names;
}

}  // namespace

void prepare_output_folder(const fs::path& folder, const std::string& flag) {
  std::error_code error;
  if (fs::exists(folder, error) && !fs::is_directory(folder, error))
    throw InputError({flag, 0, 0},
                     "'" + folder.string() + "' exists and is not a folder; give a folder for the outputs");
  fs::create_directories(folder, error);
  if (error || !fs::is_directory(folder))
    throw InputError({flag, 0, 0}, "cannot create the folder '" + folder.string() + "'" +
                                       (error ? ": " + error.message() : std::string()));
  if (::access(folder.c_str(), W_OK) != 0)
    throw InputError({flag, 0, 0}, "cannot write in '" + folder.string() + "': " + std::strerror(errno));
}

void prepare_output_file(const fs::path& file, const std::string& flag) {
  std::error_code error;
  if (fs::is_directory(file, error))
    throw InputError({flag, 0, 0}, "'" + file.string() + "' is a folder; give a file name for the output");
  // The output replaces the file by a rename: a device, FIFO or socket there would be replaced too.
  if (fs::exists(file, error) && !fs::is_regular_file(file, error))
    throw InputError({flag, 0, 0}, "'" + file.string() +
                                       "' exists and is not a regular file (a device, FIFO or socket); give "
                                       "a file name for the output");
  if (file.has_parent_path()) prepare_output_folder(file.parent_path(), flag);
}

void replace_file_atomically(const fs::path& file, const std::string& content) {
  const fs::path temp = file.string() + ".partial-" + std::to_string(::getpid());
  errno = 0;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();  // a full disk shows only when the last bytes are flushed
    if (out) {
      std::error_code error;
      fs::rename(temp, file, error);
      if (!error) return;
      errno = error.value();
    }
  }
  const std::string reason = errno != 0 ? std::strerror(errno) : "the write failed";
  std::error_code ignored;
  fs::remove(temp, ignored);  // no truncated file left behind
  throw OutputError("cannot write '" + file.string() + "': " + reason + "; '" + file.string() +
                    "' was left as it was");
}

void refuse_overwriting_inputs(const fs::path& file, const std::vector<std::string>& inputs,
                               const std::string& flag) {
  std::error_code error;
  const fs::path out = fs::weakly_canonical(file, error);
  for (const std::string& input : inputs) {
    std::error_code same_error;
    const bool same = fs::exists(file, same_error) && fs::exists(input, same_error)
                          ? fs::equivalent(file, input, same_error)
                          : fs::weakly_canonical(input, same_error) == out;
    if (same)
      throw InputError({flag, 0, 0}, "'" + file.string() + "' is also an input of this run (" + input +
                                         "); give another file for the output");
  }
}

StagedOutput::StagedOutput(fs::path target, std::string flag) : target_(std::move(target)), flag_(flag) {
  if (target_.empty()) throw InputError({flag, 0, 0}, "expected a folder name, got an empty one");
  if (target_.filename().empty()) target_ = target_.parent_path();
  const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  std::error_code error;
  if (fs::exists(target_, error) && !fs::is_directory(target_, error))
    throw InputError({flag, 0, 0},
                     "'" + target_.string() + "' exists and is not a folder; give a folder for the outputs");
  prepare_output_folder(parent, flag);
  if (fs::is_directory(target_, error)) prepare_output_folder(target_, flag);  // writable
  remove_orphaned_staging(parent, target_);
  staging_ = parent / (staging_prefix(target_) + std::to_string(::getpid()));
  fs::create_directories(staging_, error);
  if (error || ::access(staging_.c_str(), W_OK) != 0)
    throw InputError({flag, 0, 0}, "cannot write in '" + parent.string() + "'" +
                                       (error ? ": " + error.message() : std::string()));
  register_staging_folder(staging_.string());
}

StagedOutput::~StagedOutput() {
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
  unregister_staging_folder(staging_.string());
}

void StagedOutput::write(const std::string& file_name, const std::string& content) {
  write_streamed(file_name, [&](std::ostream& out) { out << content; });
}

void StagedOutput::write_streamed(const std::string& file_name,
                                  const std::function<void(std::ostream&)>& writer) {
  const fs::path path = staging_ / file_name;
  if (fs::path(file_name).has_parent_path()) fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  writer(out);
  out.flush();
  if (!out) {
    throw OutputError("cannot write '" + path.string() + "': " + std::strerror(errno) +
                      "; nothing was written to '" + target_.string() + "'");
  }
  files_.push_back(file_name);
}

void refuse_inputs_replaced(const fs::path& folder_path, const std::vector<std::string>& inputs,
                            const std::vector<std::string>& written, const std::string& flag) {
  std::vector<std::string> replaced = read_manifest(folder_path);
  replaced.insert(replaced.end(), written.begin(), written.end());
  replaced.emplace_back(StagedOutput::kManifest);
  std::error_code error;
  const fs::path folder = fs::weakly_canonical(fs::absolute(folder_path, error), error);
  for (const std::string& input : inputs) {
    if (input.empty()) continue;
    const fs::path file = fs::weakly_canonical(fs::absolute(input, error), error);
    const fs::path inside = file.lexically_relative(folder);
    if (inside.empty() || *inside.begin() == "..") continue;
    const std::string top = inside.begin()->string();
    if (std::find(replaced.begin(), replaced.end(), top) != replaced.end())
      throw InputError({flag, 0, 0}, "'" + input + "' is an input of this run and lies in '" +
                                         folder_path.string() + "', where the run replaces '" + top +
                                         "'; give another folder for the outputs");
  }
}

void StagedOutput::refuse_replacing(const std::vector<std::string>& inputs,
                                    const std::vector<std::string>& written) const {
  refuse_inputs_replaced(target_, inputs, written, flag_);
}

void StagedOutput::commit() {
  try {
    move_staged_into_target();
  } catch (const fs::filesystem_error& e) {
    throw OutputError("cannot move the outputs into '" + target_.string() + "': " + e.code().message() +
                      "; some of them may have been replaced");
  }
  committed_ = true;
}

void StagedOutput::move_staged_into_target() {
  // The manifest lists the top-level entries staged, including those written by child processes.
  std::vector<std::string> staged;
  for (const auto& entry : fs::directory_iterator(staging_))
    staged.push_back(entry.path().filename().string());
  std::sort(staged.begin(), staged.end());
  std::ostringstream manifest;
  for (const auto& name : staged) manifest << name << "\n";
  std::ofstream(staging_ / kManifest, std::ios::binary) << manifest.str();

  const std::vector<std::string> earlier = read_manifest(target_);
  fs::create_directories(target_);
  for (const auto& name : earlier) {
    if (std::binary_search(staged.begin(), staged.end(), name)) continue;
    std::error_code ignored;
    fs::remove_all(target_ / name, ignored);  // a stale output of an earlier run
  }
  for (const auto& name : staged) {
    const fs::path destination = target_ / name;
    if (fs::is_directory(destination) && !fs::is_symlink(destination)) fs::remove_all(destination);
    fs::rename(staging_ / name, destination);
  }
  fs::rename(staging_ / kManifest, target_ / kManifest);
}

}  // namespace rlsim
