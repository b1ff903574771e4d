// YAML → HardwareProfile, and the "profile" cost-model registration.
#include "sim/scenario/profile_loader.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "models/cost/cost_model_registry.h"
#include "models/cost/profiled_cost_model.h"
#include "models/cost/roofline_cost_model.h"
#include "sim/scenario/engine_reader.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {
namespace {

/// `engine: range:` — [lowest, highest] of the batches, TP degrees and contexts fitted on.
EngineFitRange read_engine_range(YamlReader& r) {
  EngineFitRange range;
  const auto pair = [&](const char* key, int64_t max) {
    const std::vector<int64_t> v = r.integer_list_or({key, "[lowest, highest] fitted on"}, 0, max);
    if (v.size() != 2 || v[0] > v[1] || v[0] < 1)
      r.fail(key, "expected [lowest, highest], two whole numbers from 1 with lowest <= highest");
    return std::pair<int64_t, int64_t>{v[0], v[1]};
  };
  std::tie(range.batch_min, range.batch_max) = pair("batch", int64_t{1} << 24);
  const auto [tp_min, tp_max] = pair("tp", 1024);
  range.tp_min = static_cast<int>(tp_min);
  range.tp_max = static_cast<int>(tp_max);
  std::tie(range.context_min, range.context_max) = pair("context", int64_t{1} << 30);
  r.finish();
  return range;
}

FitError read_error(YamlReader& r) {
  const FitError d;
  FitError e;
  e.fit_points = static_cast<int>(r.integer_or("fit_points", d.fit_points, 0, 1 << 30));
  e.held_out_points = static_cast<int>(r.integer_or("held_out_points", d.held_out_points, 0, 1 << 30));
  e.held_out_mape = r.number_or("held_out_mape", d.held_out_mape, 0.0, 1e6);
  e.held_out_max_error = r.number_or("held_out_max_error", d.held_out_max_error, 0.0, 1e6);
  e.baseline_held_out_mape = r.number_or("baseline_held_out_mape", d.baseline_held_out_mape, 0.0, 1e6);
  e.datasheet_held_out_mape = r.number_or("datasheet_held_out_mape", d.datasheet_held_out_mape, 0.0, 1e6);
  e.jitter_floor_mape = r.number_or("jitter_floor_mape", d.jitter_floor_mape, 0.0, 1e6);
  e.in_shape_held_out_points =
      static_cast<int>(r.integer_or("in_shape_held_out_points", d.in_shape_held_out_points, 0, 1 << 30));
  e.in_shape_held_out_mape = r.number_or("in_shape_held_out_mape", d.in_shape_held_out_mape, 0.0, 1e6);
  e.in_shape_held_out_max_error =
      r.number_or("in_shape_held_out_max_error", d.in_shape_held_out_max_error, 0.0, 1e6);
  r.finish();
  return e;
}

OpClass read_op_class(YamlReader& r) {
  const std::string name = r.choice_or(
      "op_class", {"gemm", "grouped_gemm", "attention_decode", "attention_prefill", "memory_bound"},
      std::string(to_string(OpClassProfile{}.op_class)));
  for (OpClass c : {OpClass::gemm, OpClass::grouped_gemm, OpClass::attention_decode,
                    OpClass::attention_prefill, OpClass::memory_bound}) {
    if (to_string(c) == name) return c;
  }
  return OpClass::gemm;
}

OpClassProfile read_op(YamlReader& r) {
  OpClassProfile op;
  op.op_class = read_op_class(r);
  std::vector<std::string> precisions;
  for (Precision p : all_precisions()) precisions.emplace_back(to_string(p));
  op.precision = *parse_precision(r.choice_or("precision", precisions, std::string(to_string(op.precision))));
  r.choice_or("model", {"tiled_roofline"}, "tiled_roofline");
  const KernelFit d;
  KernelFit& f = op.fit;
  f.launch_overhead_s = r.quantity("launch_overhead", Quantity::duration, true);
  f.compute_efficiency = r.number("compute_efficiency", 1e-6, 1.0);
  f.memory_efficiency = r.number("memory_efficiency", 1e-6, 1.0);
  f.tile_k_overhead = r.number_or("tile_k_overhead", d.tile_k_overhead, 0.0, 1e9);
  f.tile_edge_cost = r.number_or("tile_edge_cost", d.tile_edge_cost, 0.0, 1e9);
  f.overlap_exponent = r.number_or("overlap_exponent", d.overlap_exponent, 1.0, 1e6);
  f.wave_quantization = r.number_or("wave_quantization", d.wave_quantization, 0.0, 1.0);
  f.l2_band = r.number_or("l2_band", d.l2_band, 0.0, 1e300);
  YamlReader error = r.map_or_empty("error");
  op.error = read_error(error);
  r.finish();
  return op;
}

/// A list of positive numbers (a measured shape's times), each error at its own item.
std::vector<double> positive_numbers(YamlReader& r, const std::string& key) {
  const YAML::Node value = r.raw(key);
  if (!value || !value.IsSequence()) r.fail(key, "expected a list of positive numbers for '" + key + "'");
  std::vector<double> out;
  for (size_t i = 0; i < value.size(); ++i) {
    const YAML::Node item = value[i];
    const std::string text = item.IsScalar() ? item.Scalar() : "";
    const double x = parse_number(text).value_or(0.0);
    if (!(x > 0.0)) {
      throw InputError(r.source().locate(item, r.path() + "." + key + "." + std::to_string(i)),
                       "expected a positive number in '" + key + "', found '" + text + "'");
    }
    out.push_back(x);
  }
  return out;
}

MeasuredShape read_measured_shape(YamlReader& r) {
  MeasuredShape m;
  const std::string op_class = r.choice_or("op_class", {"gemm", "grouped_gemm"}, "gemm");
  m.op_class = op_class == "gemm" ? OpClass::gemm : OpClass::grouped_gemm;
  std::vector<std::string> precisions;
  for (Precision p : all_precisions()) precisions.emplace_back(to_string(p));
  m.precision = *parse_precision(r.choice_or("precision", precisions, std::string(to_string(m.precision))));
  m.n = r.integer("n", 1, int64_t{1} << 40);
  m.k = r.integer("k", 1, int64_t{1} << 40);
  m.groups = r.integer_or("groups", m.groups, 1, int64_t{1} << 20);
  m.tokens = r.integer_list_or("tokens", 1, int64_t{1} << 40);
  for (double us : positive_numbers(r, "time_us")) m.seconds.push_back(us * 1e-6);
  if (m.tokens.empty()) r.fail("tokens", "a measured shape needs at least one token count");
  if (m.tokens.size() != m.seconds.size()) {
    r.fail("time_us", "expected one time per token count: " + std::to_string(m.tokens.size()) +
                          " token counts, " + std::to_string(m.seconds.size()) + " times");
  }
  for (size_t i = 1; i < m.tokens.size(); ++i) {
    if (m.tokens[i] <= m.tokens[i - 1]) r.fail("tokens", "token counts must be strictly ascending");
  }
  r.finish();
  return m;
}

CollectiveFit read_collective(YamlReader& r) {
  CollectiveFit c;
  c.collective = r.choice_or("collective", Collective::all_reduce);
  c.gpus = static_cast<int>(r.integer("gpus", 2, 1 << 20));
  c.gpus_per_node = static_cast<int>(r.integer("gpus_per_node", 1, c.gpus));
  c.alpha_s = r.quantity("alpha", Quantity::duration, true);
  c.bandwidth_bytes_per_s = r.quantity("bandwidth", Quantity::bandwidth);
  c.min_bytes = r.quantity_or("min_message", Quantity::bytes, c.min_bytes, true);
  c.max_bytes = r.quantity_or("max_message", Quantity::bytes, c.max_bytes, true);
  YamlReader error = r.map_or_empty("error");
  c.error = read_error(error);
  r.finish();
  return c;
}

EngineAllReduce read_engine_allreduce(YamlReader& r) {
  EngineAllReduce t;
  t.engine = r.text("engine");
  t.engine_where = r.where("engine");
  t.gpus = static_cast<int>(r.integer("gpus", 2, 1 << 20));
  t.cuda_graph = r.choice_or("launch", {"graph", "eager"}, "graph") == "graph";
  t.bytes = positive_numbers(r, "message_bytes");
  for (double us : positive_numbers(r, "time_us")) t.seconds.push_back(us * 1e-6);
  if (t.bytes.empty()) r.fail("message_bytes", "an engine all-reduce needs at least one message size");
  if (t.bytes.size() != t.seconds.size()) {
    r.fail("time_us", "expected one time per message size: " + std::to_string(t.bytes.size()) + " sizes, " +
                          std::to_string(t.seconds.size()) + " times");
  }
  for (size_t i = 1; i < t.bytes.size(); ++i) {
    if (t.bytes[i] <= t.bytes[i - 1]) r.fail("message_bytes", "message sizes must be strictly ascending");
  }
  YamlReader error = r.map_or_empty("error");
  t.error = read_error(error);
  r.finish();
  return t;
}

/// `rl_run:`: the terms of a whole RL run on the profile's card (RlRunTerms).
RlRunTerms read_rl_run(YamlReader& r, const std::string& card) {
  RlRunTerms t;
  t.card = card;
  t.framework = r.text("framework");
  // Each an efficiency: above 0, and at most 10 (a run 10x faster than rlsim models is no fit).
  t.generation_efficiency = r.number_or("generation_efficiency", t.generation_efficiency, 1e-3, 10.0);
  t.forward_efficiency = r.number_or("forward_efficiency", t.forward_efficiency, 1e-3, 10.0);
  t.update_efficiency = r.number_or("update_efficiency", t.update_efficiency, 1e-3, 10.0);
  YamlReader error = r.map_or_empty("error");
  t.error = read_error(error);
  r.finish();
  return t;
}

HardwareProfile read_profile(const YamlSource& source) {
  YamlReader r(source, source.root, "", YAML::Node());
  HardwareProfile p;
  p.card = r.text("card");
  p.device = r.text_or("device", p.card);
  p.date = r.text_or("date", "unknown");
  // 0 only in a profile without op fits (an RL run's terms alone): the fits' wave quantisation needs it.
  p.sm_count = static_cast<int>(r.integer("sm_count", 0, 1 << 20));
  p.l2_bytes = r.quantity_or("l2_cache", Quantity::bytes, p.l2_bytes, true);
  for (YamlReader& s : r.map_list_or_empty("sources")) {
    ProfileSource src;
    src.file = s.text("file");
    src.points = static_cast<int>(s.integer_or("points", src.points, 0, 1 << 30));
    s.finish();
    p.sources.push_back(std::move(src));
  }
  for (YamlReader& op : r.map_list_or_empty("ops")) {
    OpClassProfile read = read_op(op);
    for (const auto& existing : p.ops) {
      if (existing.op_class == read.op_class && existing.precision == read.precision) {
        op.fail_here("a second fit for " + std::string(to_string(read.op_class)) + " at " +
                     std::string(to_string(read.precision)) + "; keep one per op class and precision");
      }
    }
    p.ops.push_back(std::move(read));
  }
  if (!p.ops.empty() && p.sm_count == 0)
    r.fail("sm_count", "a profile with op fits needs the card's SM count (1 or more)");
  for (YamlReader& c : r.map_list_or_empty("collectives")) p.collectives.push_back(read_collective(c));
  for (YamlReader& a : r.map_list_or_empty("engine_allreduces")) {
    EngineAllReduce read = read_engine_allreduce(a);
    if (p.find_engine_allreduce(read.engine, read.gpus, read.cuda_graph))
      a.fail_here("a second table for " + read.engine + " at " + std::to_string(read.gpus) +
                  " GPUs with the same launch; keep one");
    p.engine_allreduces.push_back(std::move(read));
  }
  if (r.has("engine")) {
    YamlReader engine = r.map("engine");
    p.engine = read_engine_terms(engine);
    YamlReader error = engine.map_or_empty("error");
    p.engine_error = read_error(error);
    if (engine.has("range")) {
      YamlReader range = engine.map("range");
      p.engine_range = read_engine_range(range);
    }
    engine.finish();
  }
  if (r.has("rl_run")) {
    YamlReader rl_run = r.map("rl_run");
    p.rl_run = read_rl_run(rl_run, p.card);
  }
  for (YamlReader& m : r.map_list_or_empty("measured_shapes")) {
    MeasuredShape read = read_measured_shape(m);
    Op probe;
    probe.op_class = read.op_class;
    probe.compute = read.precision;
    probe.gemm = {0, read.n, read.k, read.groups};
    if (p.find_measured(probe)) m.fail_here("a second table for the same shape; keep one per shape");
    p.measured_shapes.push_back(std::move(read));
  }
  r.finish();
  return p;
}

std::unique_ptr<CostModel> make_profiled(const ParamValues&, const std::string& profile,
                                         const SourceLocation& where) {
  if (profile.empty()) {
    throw InputError(where,
                     "the profile cost model needs a profile file (e.g. calibrate/profiles/h100.yaml)");
  }
  return std::make_unique<ProfiledCostModel>(load_profile(profile), std::make_unique<RooflineCostModel>());
}

}  // namespace

RLSIM_REGISTER_COST_MODEL(
    make_profiled, kProfileCostModel,
    "per-op fits from a calibrated hardware profile (rlsim calibrate); roofline where it has none");

HardwareProfile load_profile(const std::string& path) {
  // Parsed once per process and version of the file: a scenario's profile is read by its checks,
  // its cost model and its simulation, and forked workers (validation, sweep) inherit what their
  // parent read. A file that does not parse is not kept: every read reports it.
  namespace fs = std::filesystem;
  struct Kept {
    fs::file_time_type written;
    std::uintmax_t bytes = 0;
    HardwareProfile profile;
  };
  static std::mutex mutex;
  static std::map<std::string, Kept> kept;
  std::error_code error;
  const std::string key = fs::weakly_canonical(path, error).string();
  const fs::file_time_type written = fs::last_write_time(path, error);
  const std::uintmax_t bytes = error ? 0 : fs::file_size(path, error);
  if (!error) {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = kept.find(key);
        it != kept.end() && it->second.written == written && it->second.bytes == bytes)
      return it->second.profile;
  }
  HardwareProfile profile = read_profile(load_yaml_file(path));
  if (!error) {
    const std::lock_guard<std::mutex> lock(mutex);
    kept[key] = Kept{written, bytes, profile};
  }
  return profile;
}

void warm_profiles(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().extension() != ".yaml") continue;
    try {
      load_profile(entry.path().string());
    } catch (const InputError&) {
      // Not a profile this run can use: whoever names it gets the error then.
    }
  }
}

void check_profile_engines(const HardwareProfile& profile, const Catalog& catalog) {
  for (const EngineAllReduce& table : profile.engine_allreduces)
    catalog.engine(table.engine, table.engine_where);
}

HardwareProfile load_profile_text(const std::string& text, const std::string& file) {
  return read_profile(load_yaml_text(text, file));
}

}  // namespace rlsim
