// Reading and writing the sweep CSV.
#include "tools/sweep/sweep_csv.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "models/input_error.h"
#include "models/input_file.h"
#include "tools/report/output_dir.h"

namespace rlsim {
namespace {

/// Splits one CSV line (RFC 4180 quoting); `ok` is false when a quote is left open (a torn line).
std::vector<std::string> split_line(const std::string& line, bool& ok) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  ok = !quoted;
  return cells;
}

bool is_point(const std::string& cell) {
  return !cell.empty() && cell.size() < 18 && cell.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::string csv_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

int SweepTable::column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

double SweepTable::number(long point, const std::string& name) const {
  const int c = column(name);
  if (c < 0) return 0.0;
  return std::strtod(rows.at(point)[static_cast<size_t>(c)].c_str(), nullptr);
}

bool sweep_point_feasible(const SweepTable& table, long point) {
  const auto& cells = table.rows.at(point);
  const int fits = table.column(kFitsMemoryColumn), reason = table.column(kInvalidReasonColumn);
  return (fits < 0 || cells[static_cast<size_t>(fits)] == "1") &&
         (reason < 0 || cells[static_cast<size_t>(reason)].empty());
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i) line += ',';
    const std::string& cell = cells[i];
    if (cell.find_first_of(",\"\n\r") == std::string::npos) {
      line += cell;
      continue;
    }
    line += '"';
    for (char c : cell) line += c == '"' ? std::string("\"\"") : std::string(1, c);
    line += '"';
  }
  return line;
}

std::vector<std::string> csv_cells(const std::string& line) {
  bool ok = true;
  return split_line(line, ok);
}

SweepTable read_sweep_csv(const std::filesystem::path& path) {
  SweepTable table;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return table;
  // A regular file of bounded size: a FIFO or device in its place would be read without end.
  std::istringstream in(read_input_file(path.string(), kMaxInputFileBytes, InputRole::bookkeeping));
  std::string line;
  bool ok = true;
  if (!std::getline(in, line)) return table;
  table.header = split_line(line, ok);
  if (!ok || table.header.empty() || table.header.front() != "point") {
    throw InputError({path.string(), 1, 1}, "not a sweep CSV (its first column is not 'point')");
  }
  // A line is complete only when its newline was written: the last line may be torn.
  std::stringstream rest;
  rest << in.rdbuf();
  const std::string text = rest.str();
  size_t begin = 0;
  int line_number = 2;  // of the record that starts at `begin`
  while (begin < text.size()) {
    // A record ends at the first newline outside quotes (a reason may hold a quoted newline).
    size_t end = begin;
    bool quoted = false;
    while (end < text.size() && (quoted || text[end] != '\n')) {
      if (text[end] == '"') quoted = !quoted;
      ++end;
    }
    if (end == text.size()) break;  // no newline yet: torn by an interruption, dropped
    std::vector<std::string> cells = split_line(text.substr(begin, end - begin), ok);
    const int lines = 1 + static_cast<int>(std::count(text.begin() + static_cast<long>(begin),
                                                      text.begin() + static_cast<long>(end), '\n'));
    begin = end + 1;
    // A whole record is one rlsim wrote, or a file edited since: not a row to skip without a word.
    if (!ok || cells.size() != table.header.size() || !is_point(cells.front())) {
      throw InputError({path.string(), line_number, 1},
                       "expected a row of " + std::to_string(table.header.size()) +
                           " cells starting with its point number, found " + std::to_string(cells.size()) +
                           " cells starting with '" + (cells.empty() ? std::string() : cells.front()) + "'");
    }
    line_number += lines;
    table.rows[std::stol(cells.front())] = std::move(cells);
  }
  return table;
}

void write_sweep_csv(const std::filesystem::path& path, const SweepTable& table) {
  std::string text = csv_line(table.header) + '\n';
  for (const auto& [point, cells] : table.rows) text += csv_line(cells) + '\n';
  replace_file_atomically(path, text);
}

void append_sweep_row(const std::filesystem::path& path, const std::vector<std::string>& header,
                      const std::vector<std::string>& cells) {
  // One write() per row on an O_APPEND descriptor: a kill leaves whole rows or one torn last line.
  const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
  const std::string text = (fresh ? csv_line(header) + "\n" : std::string()) + csv_line(cells) + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) throw OutputError("cannot open '" + path.string() + "': " + std::strerror(errno));
  const ssize_t written = ::write(fd, text.data(), text.size());
  ::fsync(fd);
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()))
    throw OutputError("cannot append a row to '" + path.string() + "' (a full disk?)");
}

}  // namespace rlsim
