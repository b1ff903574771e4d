// Checking SimGrid log control strings before SimGrid sees them.
#include "tools/cli/simgrid_log_arg.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string>

namespace rlsim {
namespace {

bool valid_category(const std::string& category) {
  return !category.empty() && category.front() != '.' && category.back() != '.' &&
         std::all_of(category.begin(), category.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.'; });
}

std::string check_value(const std::string& key, const std::string& value) {
  static const std::set<std::string> levels = {"trace",   "debug", "verbose", "info",
                                               "warning", "error", "critical"};
  static const std::set<std::string> switches = {"on", "off", "yes", "no", "1", "0"};
  if (key == "thres" || key == "threshold")
    return levels.count(value) ? "" : "a level (trace, debug, verbose, info, warning, error, critical)";
  if (key == "add" || key == "additivity") return switches.count(value) ? "" : "on or off";
  if (key == "app" || key == "appender") {
    if (value.rfind("file:", 0) != 0 || value.size() <= 5) return "file:PATH";
    // SimGrid aborts when it cannot open the file: a folder, or a folder that is not there.
    const std::filesystem::path file(value.substr(5));
    const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : ".";
    std::error_code error;
    if (std::filesystem::is_directory(file, error))
      return "file:PATH naming a file, not the folder " + file.string();
    if (!std::filesystem::is_directory(folder, error) || ::access(folder.c_str(), W_OK) != 0)
      return "file:PATH in a folder that exists and can be written (" + folder.string() + ")";
    return "";
  }
  if (key == "fmt") {
    const bool printable = !value.empty() && std::all_of(value.begin(), value.end(), [](unsigned char c) {
      return std::isprint(c) != 0;
    });
    return printable ? "" : "a printable format such as %m%n";
  }
  return "thres, fmt, app or add after the category";
}

}  // namespace

CLI::Validator simgrid_log_setting() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::string usage =
            "expected CATEGORY.thres:LEVEL (e.g. root.thres:info), found '" + text + "'";
        const auto colon = text.find(':');
        if (colon == std::string::npos) return usage;
        const std::string head = text.substr(0, colon), value = text.substr(colon + 1);
        const auto dot = head.rfind('.');
        if (dot == std::string::npos || !valid_category(head.substr(0, dot))) return usage;
        const std::string expected = check_value(head.substr(dot + 1), value);
        return expected.empty() ? "" : usage + ": expected " + expected;
      },
      "CATEGORY.KEY:VALUE");
}

}  // namespace rlsim
