// Reading a GEMM throughput table (TFLOPS by shape) into measurements.
#include "calibrate/gemm_table_importer.h"

#include <optional>

#include "models/precision.h"

namespace rlsim {

MeasurementSet import_gemm_table(const CsvTable& t) {
  const size_t group = t.column("group"), groups = t.column("groups"), m = t.column("m"), n = t.column("n"),
               k = t.column("k"), dtype = t.column("dtype"), tflops = t.column("tflops");
  MeasurementSet set;
  for (const CsvRow& row : t.rows()) {
    if (t.text(row, group).empty())
      throw InputError(t.where(&row, group), "'group' must name the row's table");
    const std::optional<Precision> precision = parse_precision(t.text(row, dtype));
    if (!precision) {
      throw InputError(t.where(&row, dtype), "unknown precision '" + t.text(row, dtype) +
                                                 "'; valid values are: " + precision_names());
    }
    const double throughput = t.number(row, tflops);
    if (throughput <= 0.0) {
      throw InputError(t.where(&row, tflops), "'tflops' must be positive, found " + t.text(row, tflops));
    }
    Measurement point;
    point.op = make_grouped_gemm("gemm", t.integer(row, groups, 1, 1 << 20), t.integer(row, m, 1, 1 << 30),
                                 t.integer(row, n, 1, 1 << 30), t.integer(row, k, 1, 1 << 30), *precision);
    point.seconds = point.op.flops / (throughput * 1e12);
    point.source = t.file() + ":" + std::to_string(row.line);
    point.group = t.text(row, group);
    set.points.push_back(std::move(point));
  }
  set.files.push_back(t.file());
  set.points_per_file.push_back(static_cast<int>(set.points.size()));
  return set;
}

MeasurementSet import_gemm_table_csv(const std::string& path) {
  return import_gemm_table(CsvTable::read(path));
}

}  // namespace rlsim
