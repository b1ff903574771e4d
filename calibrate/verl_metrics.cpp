// verl's per-step metrics from its console log, file logger or a CSV export (verl_metrics.h).
#include "calibrate/verl_metrics.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "calibrate/csv_table.h"
#include "models/input_error.h"

namespace rlsim {
namespace {

constexpr const char* kExpected =
    "expected verl's per-step metrics: console lines 'step:N - timing_s/gen:SECONDS - ...', the file "
    "logger's JSON lines {\"step\": N, \"data\": {...}}, or a CSV with a step column and columns named "
    "as verl names its metrics (timing_s/gen, timing_s/update_actor, ...)";

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

/// Old logs time stages under `timing/`; verl has named them `timing_s/` since.
std::string canonical_key(std::string key) {
  if (key.rfind("timing/", 0) == 0) key = "timing_s/" + key.substr(7);
  return key;
}

/// A console value as a number: `12.345`, `1e-06`, `np.float64(12.3)`, `True`; nothing else.
bool console_number(std::string text, double& value) {
  text = trimmed(text);
  for (const char* wrapper : {"np.float64(", "np.float32(", "np.int64(", "np.int32(", "tensor("}) {
    const std::string w(wrapper);
    if (text.rfind(w, 0) == 0 && !text.empty() && text.back() == ')') {
      text = text.substr(w.size(), text.size() - w.size() - 1);
      break;
    }
  }
  if (text == "True" || text == "False") {
    value = text == "True" ? 1.0 : 0.0;
    return true;
  }
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end && *end == '\0';
}

bool has_timing(const VerlStep& step) {
  for (const auto& [key, value] : step.values) {
    if (key.rfind("timing_s/", 0) == 0) return true;
  }
  return false;
}

/// Adds `step` unless it has no timings; a step number seen before is an error.
void add_step(VerlLog& log, VerlStep step, int column) {
  if (!has_timing(step)) return;
  for (const VerlStep& seen : log.steps) {
    if (seen.step == step.step) {
      throw InputError({log.file, step.line, column},
                       "step " + std::to_string(step.step) + " appears twice (first on line " +
                           std::to_string(seen.line) +
                           "): give one run's log (a resumed run: keep one copy of each step)");
    }
  }
  log.steps.push_back(std::move(step));
}

/// `(TaskRunner pid=1) step:3 - a:1 - b:2`: the fields after the step, split at " - ".
void read_console_line(VerlLog& log, const std::string& raw, int number) {
  // Ray colours its prefixes: ESC [ ... m sequences are dropped.
  std::string line;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\x1b' && i + 1 < raw.size() && raw[i + 1] == '[') {
      i += 2;
      while (i < raw.size() && !std::isalpha(static_cast<unsigned char>(raw[i]))) ++i;
      continue;
    }
    line += raw[i];
  }
  size_t at = line.find("step:");
  while (at != std::string::npos && at > 0 && line[at - 1] != ' ' && line[at - 1] != ')')
    at = line.find("step:", at + 1);
  if (at == std::string::npos) return;
  const size_t digits = at + 5;
  size_t end = digits;
  while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
  if (end == digits) return;
  VerlStep step;
  step.step = std::atoi(line.substr(digits, end - digits).c_str());
  step.line = number;
  const std::string separator = " - ";
  size_t field = line.find(separator, end);
  while (field != std::string::npos) {
    const size_t start = field + separator.size();
    const size_t next = line.find(separator, start);
    const std::string text = line.substr(start, next == std::string::npos ? std::string::npos : next - start);
    const size_t colon = text.rfind(':');
    double value = 0.0;
    if (colon != std::string::npos && console_number(text.substr(colon + 1), value))
      step.values[canonical_key(trimmed(text.substr(0, colon)))] = value;
    field = next;
  }
  add_step(log, std::move(step), static_cast<int>(at) + 1);
}

void read_json_line(VerlLog& log, const std::string& line, int number) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    throw InputError({log.file, number, 1}, std::string("not a JSON line (") + e.what() + "); " + kExpected);
  }
  if (!j.is_object() || !j.contains("step") || !j["step"].is_number_integer() || !j.contains("data") ||
      !j["data"].is_object())
    throw InputError({log.file, number, 1}, std::string("a JSON line without step and data; ") + kExpected);
  VerlStep step;
  step.step = j["step"].get<int>();
  step.line = number;
  for (const auto& [key, value] : j["data"].items()) {
    if (value.is_number()) step.values[canonical_key(key)] = value.get<double>();
  }
  add_step(log, std::move(step), 1);
}

void read_csv(VerlLog& log, const std::string& text) {
  const CsvTable table = CsvTable::parse(text, log.file);
  const std::string step_column = table.has_column("step") ? "step" : "_step";
  const size_t step_at = table.column(step_column);
  for (const CsvRow& row : table.rows()) {
    VerlStep step;
    step.step = static_cast<int>(table.integer(row, step_at, 0, 1 << 30));
    step.line = row.line;
    for (size_t c = 0; c < row.cells.size(); ++c) {
      if (c == step_at || trimmed(row.cells[c].text).empty()) continue;  // an empty cell: not logged
      step.values[canonical_key(trimmed(table.header(c)))] = table.number(row, c);
    }
    add_step(log, std::move(step), 1);
  }
}

}  // namespace

VerlLog parse_verl_log(const std::string& text, const std::string& file) {
  VerlLog log;
  log.file = file;
  std::istringstream in(text);
  std::string first;
  while (std::getline(in, first) && trimmed(first).empty()) {
  }
  // A CSV export: its header names a step column.
  bool csv = false;
  std::istringstream header(trimmed(first));
  for (std::string cell; std::getline(header, cell, ',');) csv = csv || cell == "step" || cell == "_step";
  if (csv) {
    read_csv(log, text);
  } else {
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
      const std::string body = trimmed(line);
      if (body.empty()) continue;
      if (body.front() == '{')
        read_json_line(log, body, number);
      else
        read_console_line(log, line, number);
    }
  }
  if (log.steps.empty())
    throw InputError({file, 0, 0}, std::string("no step with timings found; ") + kExpected);
  std::sort(log.steps.begin(), log.steps.end(),
            [](const VerlStep& a, const VerlStep& b) { return a.step < b.step; });
  return log;
}

VerlLog read_verl_log(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "cannot read the file (check the path)");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_verl_log(text.str(), path);
}

}  // namespace rlsim
