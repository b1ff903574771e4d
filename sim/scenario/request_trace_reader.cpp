// The request-trace CSV: header check, one row per request, located errors.
#include "sim/scenario/request_trace_reader.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "models/input_file.h"
#include "models/units.h"
#include "sim/scenario/distribution_reader.h"

namespace rlsim {
namespace {

const char* const kHeader = "arrival_s,prompt_tokens,output_tokens";

/// The field starting at `column` (1-based) of `line` as a number ≥ `min`, whole when `whole`.
double field(const std::string& text, const SourceLocation& at, const char* name, double min, double max,
             bool whole) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  const bool parsed = !text.empty() && end == text.c_str() + text.size() && std::isfinite(value);
  if (!parsed || value < min || value > max || (whole && value != std::floor(value))) {
    throw InputError(at, std::string("expected ") + name + " as " + (whole ? "a whole number" : "a number") +
                             " from " + format_number(min) + " to " + format_number(max) + ", found '" +
                             text + "'");
  }
  return value;
}

}  // namespace

std::vector<TracedRequest> read_request_trace(const std::string& file) {
  // A regular file of bounded size (a FIFO or device would be read without end), fingerprinted
  // with the scenario's other inputs so a sweep's rows are tied to the trace's contents.
  std::istringstream in(read_input_file(file));
  std::vector<TracedRequest> rows;
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    if (!header) {
      if (line != kHeader)
        throw InputError({file, number, 1},
                         std::string("expected the header '") + kHeader + "', found '" + line + "'");
      header = true;
      continue;
    }
    std::vector<std::string> cells{""};
    std::vector<int> columns{1};
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == ',') {
        cells.emplace_back();
        columns.push_back(static_cast<int>(i) + 2);
      } else if (line[i] != ' ') {
        cells.back() += line[i];
      }
    }
    if (cells.size() != 3)
      throw InputError({file, number, 1}, "expected 3 fields (" + std::string(kHeader) + "), found " +
                                              std::to_string(cells.size()));
    TracedRequest r;
    r.line = number;
    r.arrival_s = field(cells[0], {file, number, columns[0]}, "arrival_s", 0.0, kMaxRecordedSeconds, false);
    r.prompt_tokens =
        field(cells[1], {file, number, columns[1]}, "prompt_tokens", 0.0, kMaxTokensPerSequence, true);
    r.output_tokens =
        field(cells[2], {file, number, columns[2]}, "output_tokens", 1.0, kMaxTokensPerSequence, true);
    if (!rows.empty() && r.arrival_s < rows.back().arrival_s)
      throw InputError({file, number, columns[0]}, "expected arrival_s in non-decreasing order, found " +
                                                       cells[0] + " after an earlier row's later arrival");
    rows.push_back(r);
  }
  if (!header) throw InputError({file, 1, 1}, std::string("expected the header '") + kHeader + "'");
  if (rows.empty()) throw InputError({file, number, 1}, "expected at least one request after the header");
  return rows;
}

size_t longest_request(const std::vector<TracedRequest>& trace) {
  size_t longest = 0;
  for (size_t i = 1; i < trace.size(); ++i) {
    if (trace[i].prompt_tokens + trace[i].output_tokens >
        trace[longest].prompt_tokens + trace[longest].output_tokens)
      longest = i;
  }
  return longest;
}

}  // namespace rlsim
