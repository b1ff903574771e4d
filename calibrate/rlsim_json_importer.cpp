// Reading the kernel suite's measurements JSON into a MeasurementSet.
#include "calibrate/rlsim_json_importer.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "calibrate/json_input.h"
#include "calibrate/json_locator.h"
#include "models/input_file.h"

namespace rlsim {
namespace {

using nlohmann::json;

/// Checked access to one JSON object at a pointer, with located errors.
class JsonFields {
 public:
  JsonFields(const json& object, std::string pointer, const JsonLocator& locator)
      : object_(object), pointer_(std::move(pointer)), locator_(locator) {
    if (!object_.is_object()) fail("", "expected an object");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw InputError(locator_.where(key.empty() ? pointer_ : pointer_ + "/" + key), message);
  }
  bool has(const std::string& key) const { return object_.contains(key); }
  const json& raw(const std::string& key) const {
    if (!object_.contains(key)) fail("", "missing field '" + key + "'");
    return object_.at(key);
  }
  std::string text(const std::string& key) const {
    const json& v = raw(key);
    if (!v.is_string()) fail(key, "'" + key + "' must be a string");
    return v.get<std::string>();
  }
  std::string text_or(const std::string& key, const std::string& fallback) const {
    return has(key) ? text(key) : fallback;
  }
  double number(const std::string& key, double min) const {
    const json& v = raw(key);
    if (!v.is_number()) fail(key, "'" + key + "' must be a number");
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < min)
      fail(key, "'" + key + "' must be a finite number >= " + std::to_string(min));
    return x;
  }
  int64_t integer(const std::string& key, int64_t min) const {
    const json& v = raw(key);
    if (!v.is_number_integer()) fail(key, "'" + key + "' must be a whole number");
    const int64_t x = v.get<int64_t>();
    if (x < min) fail(key, "'" + key + "' must be >= " + std::to_string(min));
    return x;
  }
  Precision precision(const std::string& key, Precision fallback) const {
    if (!has(key)) return fallback;
    auto p = parse_precision(text(key));
    if (!p) fail(key, "unknown precision '" + text(key) + "'; valid values are: " + precision_names());
    return *p;
  }

 private:
  const json& object_;
  std::string pointer_;
  const JsonLocator& locator_;
};

Op read_op(const JsonFields& f) {
  const std::string kind = f.text("op");
  const std::string name = f.text_or("name", kind);
  const Precision dtype = f.precision("dtype", Precision::bf16);
  if (kind == "gemm" || kind == "grouped_gemm") {
    const int64_t groups = kind == "gemm" ? 1 : f.integer("groups", 1);
    return make_grouped_gemm(name, groups, f.integer("m", 1), f.integer("n", 1), f.integer("k", 1), dtype);
  }
  if (kind == "attention_decode" || kind == "attention_prefill") {
    AttentionShape s;
    s.batch = f.integer("batch", 1);
    s.q_len = kind == "attention_decode" ? 1 : f.integer("q_len", 1);
    s.kv_len = f.integer("kv_len", kind == "attention_decode" ? 1 : 0);
    s.q_heads = static_cast<int>(f.integer("q_heads", 1));
    s.kv_heads = static_cast<int>(f.integer("kv_heads", 1));
    s.qk_head_dim = static_cast<int>(f.integer("qk_head_dim", 1));
    s.v_head_dim = static_cast<int>(f.integer("v_head_dim", 1));
    if (kind == "attention_decode")
      return make_attention_decode(name, s, f.precision("kv_dtype", dtype), dtype);
    return make_attention_prefill(name, s, dtype);
  }
  if (kind == "hbm_read" || kind == "hbm_write" || kind == "hbm_copy") {
    return make_memory_op(name, f.number("bytes", 1.0), 0.0, dtype);
  }
  f.fail("op", "unknown op '" + kind +
                   "'; valid values are: gemm, grouped_gemm, attention_decode, attention_prefill, hbm_read, "
                   "hbm_write, hbm_copy, launch_latency, decoder_layer");
}

bool is_engine_overhead(const std::string& op) { return op == "launch_latency" || op == "decoder_layer"; }

std::string choice(const JsonFields& f, const std::string& key, const std::vector<std::string>& valid) {
  const std::string value = f.text(key);
  if (std::find(valid.begin(), valid.end(), value) != valid.end()) return value;
  std::string list;
  for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
  f.fail(key, "unknown " + key + " '" + value + "'; valid values are: " + list);
}

EngineOverheadMeasurement read_engine_overhead(const JsonFields& f, std::string source) {
  EngineOverheadMeasurement e;
  e.kind = f.text("op");
  e.name = f.text_or("name", e.kind);
  e.launch = choice(f, "launch", {"stream", "graph"});
  e.seconds = f.number("seconds", 0.0);
  if (e.seconds <= 0.0) f.fail("seconds", "'seconds' must be positive");
  if (e.kind == "decoder_layer") {
    e.phase = choice(f, "phase", {"decode", "prefill"});
    e.kernel_sum_seconds = f.number("kernel_sum_seconds", 0.0);
    if (e.kernel_sum_seconds <= 0.0) f.fail("kernel_sum_seconds", "'kernel_sum_seconds' must be positive");
  }
  e.source = std::move(source);
  return e;
}

}  // namespace

MeasurementSet import_rlsim_json_text(const std::string& text, const std::string& file) {
  const json doc = parse_json_input(text, file);
  const JsonLocator locator(text, file);
  const JsonFields root(doc, "", locator);
  if (root.text_or("format", "") != "rlsim-measurements") {
    root.fail("format", "not an rlsim measurements file: expected \"format\": \"rlsim-measurements\"");
  }
  if (root.integer("version", 1) != 1)
    root.fail("version", "unsupported version; this rlsim reads version 1");
  MeasurementSet set;
  set.date = root.text_or("date", "");
  const JsonFields device(root.raw("device"), "/device", locator);
  set.device = device.text("name");
  set.sm_count = static_cast<int>(device.integer("sm_count", 1));
  if (device.has("l2_bytes")) set.l2_bytes = device.number("l2_bytes", 0.0);
  const json& points = root.raw("points");
  if (!points.is_array()) root.fail("points", "'points' must be a list");
  for (size_t i = 0; i < points.size(); ++i) {
    const std::string pointer = "/points/" + std::to_string(i);
    const JsonFields f(points[i], pointer, locator);
    const SourceLocation at = locator.where(pointer);
    if (is_engine_overhead(f.text("op"))) {
      set.engine_overheads.push_back(read_engine_overhead(f, file + ":" + std::to_string(at.line)));
      continue;
    }
    Measurement m;
    m.op = read_op(f);
    m.seconds = f.number("seconds", 0.0);
    if (m.seconds <= 0.0) f.fail("seconds", "'seconds' must be positive");
    m.group = f.text_or("model", "");
    m.source = file + ":" + std::to_string(at.line);
    set.points.push_back(std::move(m));
  }
  set.files.push_back(file);
  set.points_per_file.push_back(static_cast<int>(set.points.size() + set.engine_overheads.size()));
  return set;
}

MeasurementSet import_rlsim_json(const std::string& path) {
  return import_rlsim_json_text(read_input_file(path), path);
}

}  // namespace rlsim
