// Reading CSV measurement files with located cells.
#include "calibrate/csv_table.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "models/input_file.h"

namespace rlsim {
namespace {

CsvRow split_line(const std::string& line, int line_number, const std::string& file) {
  CsvRow row;
  row.line = line_number;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    const size_t end = comma == std::string::npos ? line.size() : comma;
    std::string cell = line.substr(start, end - start);
    if (cell.find('"') != std::string::npos) {
      throw InputError({file, line_number, static_cast<int>(start) + 1},
                       "quoted CSV fields are not supported in measurement files");
    }
    row.cells.push_back({std::move(cell), static_cast<int>(start) + 1});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return row;
}

}  // namespace

CsvTable CsvTable::read(const std::string& path) { return parse(read_input_file(path), path); }

CsvTable CsvTable::parse(const std::string& text, const std::string& file) {
  CsvTable table;
  table.file_ = file;
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    CsvRow row = split_line(line, line_number, file);
    if (!have_header) {
      table.header_ = std::move(row);
      have_header = true;
      continue;
    }
    if (row.cells.size() != table.header_.cells.size()) {
      throw InputError({file, line_number, 1}, "row has " + std::to_string(row.cells.size()) +
                                                   " cells, the header has " +
                                                   std::to_string(table.header_.cells.size()));
    }
    table.rows_.push_back(std::move(row));
  }
  if (!have_header) throw InputError({file, 1, 1}, "empty CSV file: expected a header line");
  return table;
}

std::optional<size_t> CsvTable::index_of(const std::string& name) const {
  for (size_t i = 0; i < header_.cells.size(); ++i) {
    if (header_.cells[i].text == name) return i;
  }
  return std::nullopt;
}

size_t CsvTable::column(const std::string& name) const {
  if (auto i = index_of(name)) return *i;
  throw InputError({file_, header_.line, 1}, "missing column '" + name + "' in the header");
}

SourceLocation CsvTable::where(const CsvRow* row, size_t column) const {
  const CsvRow& r = row ? *row : header_;
  const int col = column < r.cells.size() ? r.cells[column].column : 1;
  return {file_, r.line, col};
}

double CsvTable::number(const CsvRow& row, size_t column) const {
  const std::string& text = row.cells.at(column).text;
  const std::string& name = header_.cells.at(column).text;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) {
    throw InputError(where(&row, column), "'" + name + "' must be a number, found '" + text + "'");
  }
  return value;
}

long long CsvTable::integer(const CsvRow& row, size_t column, long long min, long long max) const {
  const std::string& text = row.cells.at(column).text;
  const std::string& name = header_.cells.at(column).text;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
    throw InputError(where(&row, column), "'" + name + "' must be a whole number, found '" + text + "'");
  }
  if (value < min || value > max) {
    throw InputError(where(&row, column), "'" + name + "' must be in [" + std::to_string(min) + ", " +
                                              std::to_string(max) + "], found " + text);
  }
  return value;
}

bool CsvTable::flag(const CsvRow& row, size_t column) const {
  std::string text = row.cells.at(column).text;
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw InputError(where(&row, column), "'" + header_.cells.at(column).text +
                                            "' must be True or False, found '" + row.cells.at(column).text +
                                            "'");
}

}  // namespace rlsim
