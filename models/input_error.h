// InputError: a problem with what the user gave us (scenario, catalog, measurements, flags).
// It carries where the problem is, so every layer can report `FILE:LINE:COL: error: ...` (as
// compilers do: `FILE: error: ...` where no line is known, e.g. a command-line flag) and the command
// line can turn it into exit code 2. Broken internal invariants are asserts, not this. Beside it,
// OutputError: a write that failed after every check (a full disk), exit code 1 naming the path.
#pragma once

#include <stdexcept>
#include <string>

namespace rlsim {

struct SourceLocation {
  std::string file;  ///< path as the user wrote it, or a pseudo-file such as "--set"
  int line = 0;      ///< 1-based; 0 when unknown
  int column = 0;    ///< 1-based; 0 when unknown
};

class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation where, const std::string& message)
      : std::runtime_error(format(where, message)), where_(std::move(where)), message_(message) {}

  const SourceLocation& where() const { return where_; }
  /// The message without the location prefix.
  const std::string& message() const { return message_; }

  /// An input error passed on whole from elsewhere (e.g. a child process's what()), its location
  /// already in the text.
  static InputError relayed(const std::string& formatted) { return InputError(formatted); }

  static std::string format(const SourceLocation& where, const std::string& message) {
    std::string at = where.file;
    if (where.line > 0) at += ":" + std::to_string(where.line);
    if (where.line > 0 && where.column > 0) at += ":" + std::to_string(where.column);
    return at + ": error: " + message;
  }

 private:
  explicit InputError(const std::string& formatted) : std::runtime_error(formatted), message_(formatted) {}

  SourceLocation where_;
  std::string message_;
};

/// A write that failed after the checks (a full disk, a folder removed under the run): the CLI
/// reports it with its path, exit 1.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace rlsim
