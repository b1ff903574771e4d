// The sweep table as a CSV file: one header line, then one row per finished grid point, keyed by
// its `point` index (the first column). Rows are appended one at a time as points finish, so an
// interrupted sweep keeps every finished point; reading drops a torn last line. The final file is
// rewritten sorted by point, so sharded and unsharded runs of a grid give the same bytes.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace rlsim {

/// A number as the sweep writes it: shortest of %.6g (same value, same text on every run).
std::string csv_number(double value);

struct SweepTable {
  std::vector<std::string> header;                ///< "point", the swept paths, then the metrics
  std::map<long, std::vector<std::string>> rows;  ///< by point index, cells in header order

  /// Index of column `name`, or -1.
  int column(const std::string& name) const;
  /// The cell of `point` (a row of the table) in column `name` as a number; 0 when the column is
  /// absent, so reports read the columns of the kind they expect without checking each one.
  double number(long point, const std::string& name) const;
};

/// The columns every sweep row ends with: whether the point fits in GPU memory (1, 0, or empty
/// when an invalid point failed for another reason) and why the point was not simulated (empty
/// when it was; `rlsim sweep --skip-invalid` records invalid points instead of stopping).
constexpr char kFitsMemoryColumn[] = "fits_memory";
constexpr char kInvalidReasonColumn[] = "invalid_reason";
/// True when `point` was simulated and fits in memory (tables without the columns: every point).
bool sweep_point_feasible(const SweepTable& table, long point);

/// Reads `path`; a missing file is an empty table. A last line without its newline (a write cut
/// short) is dropped; InputError when the file is not a sweep CSV or a whole row lacks the header's
/// cell count or a point number (at its line).
SweepTable read_sweep_csv(const std::filesystem::path& path);
/// Writes the whole table sorted by point, atomically (temporary file, then rename).
void write_sweep_csv(const std::filesystem::path& path, const SweepTable& table);
/// Appends one row (creating the file with `header` first if needed) and flushes it to disk.
void append_sweep_row(const std::filesystem::path& path, const std::vector<std::string>& header,
                      const std::vector<std::string>& cells);

/// One CSV line (no newline) with quoting where a cell needs it, and its cells back.
std::string csv_line(const std::vector<std::string>& cells);
std::vector<std::string> csv_cells(const std::string& line);

}  // namespace rlsim
