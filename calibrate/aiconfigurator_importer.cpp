// Reading aiconfigurator's custom_allreduce_perf rows into engine all-reduce measurements and its
// gemm_perf rows into GEMM measurements.
#include "calibrate/aiconfigurator_importer.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>

#include "models/ops/op.h"
#include "models/precision.h"

namespace rlsim {
namespace {

constexpr double kMsToS = 1e-3;

/// aiconfigurator's `framework` names and the rlsim engine presets they measured.
const std::map<std::string, std::string>& engine_presets() {
  static const std::map<std::string, std::string> presets{
      {"SGLang", "sglang"}, {"TRTLLM", "trtllm"}, {"vLLM", "vllm-v1"}};
  return presets;
}

const std::map<std::string, int>& element_bytes() {
  static const std::map<std::string, int> bytes{{"bfloat16", 2}, {"float16", 2}, {"half", 2}, {"float32", 4}};
  return bytes;
}

/// aiconfigurator's `gemm_dtype` names rlsim prices: the weights' and activations' precision.
/// (fp8_block and the weight-only modes are other kernels than rlsim's fp8 and int4 GEMMs.)
const std::map<std::string, Precision>& gemm_precisions() {
  static const std::map<std::string, Precision> precisions{
      {"bfloat16", Precision::bf16}, {"fp8", Precision::fp8}, {"nvfp4", Precision::fp4}};
  return precisions;
}

template <typename Map>
std::string keys_of(const Map& map) {
  std::string out;
  for (const auto& [key, value] : map) out += (out.empty() ? "" : ", ") + key;
  return out;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

bool has_columns(const CsvTable& table, std::initializer_list<const char*> columns) {
  for (const char* column : columns)
    if (!table.has_column(column)) return false;
  return true;
}

/// Each row must be of op `name` (the table's `op_name` column).
void expect_op(const CsvTable& t, const CsvRow& row, size_t column, const std::string& name) {
  if (t.text(row, column) != name)
    throw InputError(t.where(&row, column),
                     "expected op_name " + name + ", found '" + t.text(row, column) + "'");
}

/// What `map` gives for the row's value in `column`; an error naming the valid values otherwise.
template <typename Map>
const typename Map::mapped_type& lookup(const CsvTable& t, const CsvRow& row, size_t column,
                                        const char* column_name, const Map& map) {
  const auto found = map.find(t.text(row, column));
  if (found == map.end()) {
    throw InputError(t.where(&row, column), std::string("unknown ") + column_name + " '" +
                                                t.text(row, column) + "'. Valid values are: " + keys_of(map));
  }
  return found->second;
}

/// The row's `latency` (milliseconds, positive) in seconds.
double latency_seconds(const CsvTable& t, const CsvRow& row, size_t column) {
  const double ms = t.number(row, column);
  if (ms <= 0.0)
    throw InputError(t.where(&row, column), "a time must be positive, found " + t.text(row, column));
  return ms * kMsToS;
}

}  // namespace

bool is_aiconfigurator_allreduce(const CsvTable& table) {
  return has_columns(
      table, {"framework", "kernel_source", "allreduce_dtype", "num_gpus", "message_size", "latency"});
}

MeasurementSet import_aiconfigurator_allreduce_table(const CsvTable& t) {
  MeasurementSet set;
  const size_t framework = t.column("framework"), device = t.column("device"), op = t.column("op_name"),
               source = t.column("kernel_source"), dtype = t.column("allreduce_dtype"),
               gpus = t.column("num_gpus"), size = t.column("message_size"), latency = t.column("latency");
  for (const CsvRow& row : t.rows()) {
    expect_op(t, row, op, "all_reduce");
    const std::string& preset = lookup(t, row, framework, "framework", engine_presets());
    const int bytes = lookup(t, row, dtype, "allreduce_dtype", element_bytes());
    if (set.device.empty()) set.device = t.text(row, device);
    EngineAllReduceMeasurement m;
    m.engine = preset;
    m.gpus = static_cast<int>(t.integer(row, gpus, 2, 1 << 20));
    m.cuda_graph = !ends_with(t.text(row, source), "_eager");
    m.bytes = static_cast<double>(t.integer(row, size, 1, 1LL << 50)) * bytes;
    m.seconds = latency_seconds(t, row, latency);
    m.source = t.file() + ":" + std::to_string(row.line);
    set.engine_allreduces.push_back(std::move(m));
  }
  set.files.push_back(t.file());
  set.points_per_file.push_back(static_cast<int>(set.engine_allreduces.size()));
  return set;
}

bool is_aiconfigurator_gemm(const CsvTable& table) {
  return has_columns(table, {"framework", "op_name", "gemm_dtype", "m", "n", "k", "latency"});
}

MeasurementSet import_aiconfigurator_gemm_table(const CsvTable& t) {
  MeasurementSet set;
  const size_t device = t.column("device"), op = t.column("op_name"), dtype = t.column("gemm_dtype"),
               m = t.column("m"), n = t.column("n"), k = t.column("k"), latency = t.column("latency");
  for (const CsvRow& row : t.rows()) {
    expect_op(t, row, op, "gemm");
    const Precision precision = lookup(t, row, dtype, "gemm_dtype", gemm_precisions());
    if (set.device.empty()) set.device = t.text(row, device);
    const int64_t inner = t.integer(row, k, 1, 1 << 30);
    Measurement point;
    point.op =
        make_gemm("gemm", t.integer(row, m, 1, 1 << 30), t.integer(row, n, 1, 1 << 30), inner, precision);
    point.seconds = latency_seconds(t, row, latency);
    point.source = t.file() + ":" + std::to_string(row.line);
    point.group = "k=" + std::to_string(inner);
    set.points.push_back(std::move(point));
  }
  set.files.push_back(t.file());
  set.points_per_file.push_back(static_cast<int>(set.points.size()));
  return set;
}

}  // namespace rlsim
