// CsvTable: a comma-separated file read into cells that remember where they came from, so every
// importer can report a bad value as FILE:LINE:COL. Plain CSV only (no quoted commas), which is
// what the measurement files we import use; a quoted field is rejected rather than misread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/input_error.h"

namespace rlsim {

struct CsvCell {
  std::string text;
  int column = 0;  ///< 1-based character column where the cell starts
};

struct CsvRow {
  int line = 0;  ///< 1-based line in the file
  std::vector<CsvCell> cells;
};

class CsvTable {
 public:
  /// Reads `path`; the first line is the header. Throws InputError on unreadable files, quoted
  /// fields, and rows whose cell count differs from the header's.
  static CsvTable read(const std::string& path);
  /// Parses text already in memory; `file` names it in messages.
  static CsvTable parse(const std::string& text, const std::string& file);

  const std::string& file() const { return file_; }
  const std::vector<CsvRow>& rows() const { return rows_; }
  bool has_column(const std::string& name) const { return index_of(name).has_value(); }
  /// Index of a header column, or InputError at the header listing what was expected.
  size_t column(const std::string& name) const;

  /// Location of a cell (or of the header when `row` is null) for messages.
  SourceLocation where(const CsvRow* row, size_t column) const;
  /// A cell as a finite number; InputError at the cell otherwise.
  double number(const CsvRow& row, size_t column) const;
  /// A cell as a whole number in [min, max]; InputError at the cell otherwise.
  long long integer(const CsvRow& row, size_t column, long long min, long long max) const;
  /// A cell as True/False (any case) or 1/0.
  bool flag(const CsvRow& row, size_t column) const;
  const std::string& text(const CsvRow& row, size_t column) const { return row.cells.at(column).text; }
  /// The header's name of `column`.
  const std::string& header(size_t column) const { return header_.cells.at(column).text; }

 private:
  std::optional<size_t> index_of(const std::string& name) const;

  std::string file_;
  CsvRow header_;
  std::vector<CsvRow> rows_;
};

}  // namespace rlsim
