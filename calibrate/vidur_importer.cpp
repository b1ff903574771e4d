// Reading vidur's mlp_*.csv (per-op GEMMs) and NCCL collective CSVs into measurements.
#include "calibrate/vidur_importer.h"

#include <algorithm>
#include <filesystem>
#include <optional>

namespace rlsim {
namespace {

constexpr double kMsToS = 1e-3;

std::string model_group(const std::string& path) {
  std::string stem = std::filesystem::path(path).stem().string();
  const size_t at = stem.find("mlp_");
  if (at != std::string::npos) stem = stem.substr(at + 4);
  return stem;
}

MeasurementSet import_gemms(const CsvTable& t) {
  MeasurementSet set;
  const size_t heads = t.column("n_head"), kv_heads = t.column("n_kv_head"), hidden = t.column("n_embd"),
               ffn = t.column("n_expanded_embd"), gated = t.column("use_gated_mlp"),
               tokens = t.column("num_tokens"), tp = t.column("num_tensor_parallel_workers");
  const std::string group = model_group(t.file());
  for (const CsvRow& row : t.rows()) {
    VidurLayerShape s;
    s.heads = t.integer(row, heads, 1, 1 << 16);
    s.kv_heads = t.integer(row, kv_heads, 1, s.heads);
    s.hidden = t.integer(row, hidden, 1, 1 << 22);
    s.ffn = t.integer(row, ffn, 1, 1 << 24);
    s.gated = t.flag(row, gated);
    s.tokens = t.integer(row, tokens, 1, 1 << 24);
    s.tp = t.integer(row, tp, 1, 1024);
    if (s.hidden % s.heads != 0)
      throw InputError(t.where(&row, hidden), "n_embd must be a multiple of n_head");
    if (s.heads % s.tp != 0 || s.ffn % s.tp != 0) {
      throw InputError(t.where(&row, tp),
                       "n_head and n_expanded_embd must divide by the tensor-parallel degree");
    }
    for (const VidurGemm& g : vidur_layer_gemms(s)) {
      const size_t median = t.column("time_stats." + g.op + ".median");
      const double ms = t.number(row, median);
      if (ms <= 0.0)
        throw InputError(t.where(&row, median), "a time must be positive, found " + t.text(row, median));
      Measurement m;
      m.op = make_gemm(g.op, g.m, g.n, g.k, Precision::bf16);
      m.seconds = ms * kMsToS;
      m.source = t.file() + ":" + std::to_string(row.line);
      m.group = group;
      set.points.push_back(std::move(m));
    }
  }
  return set;
}

MeasurementSet import_collectives(const CsvTable& t) {
  MeasurementSet set;
  const size_t kind = t.column("collective"), size = t.column("size"), workers = t.column("num_workers"),
               per_node = t.column("devices_per_node");
  for (const CsvRow& row : t.rows()) {
    CollectiveMeasurement c;
    const std::string name = t.text(row, kind);
    const std::optional<Collective> collective = parse_enum<Collective>(name);
    if (!collective) {
      std::string valid;
      for (const std::string& known : enum_names<Collective>()) valid += (valid.empty() ? "" : ", ") + known;
      throw InputError(t.where(&row, kind), "unknown collective '" + name + "'. Valid values are: " + valid);
    }
    c.collective = *collective;
    c.bytes = static_cast<double>(t.integer(row, size, 1, 1LL << 50));
    c.gpus = static_cast<int>(t.integer(row, workers, 2, 1 << 20));
    c.gpus_per_node = static_cast<int>(t.integer(row, per_node, 1, c.gpus));
    const size_t median = t.column("time_stats." + name + ".median");
    const double ms = t.number(row, median);
    if (ms <= 0.0)
      throw InputError(t.where(&row, median), "a time must be positive, found " + t.text(row, median));
    c.seconds = ms * kMsToS;
    c.source = t.file() + ":" + std::to_string(row.line);
    set.collectives.push_back(std::move(c));
  }
  return set;
}

}  // namespace

std::vector<VidurGemm> vidur_layer_gemms(const VidurLayerShape& s) {
  const long long head_dim = s.hidden / s.heads;
  // KV heads fewer than TP ranks are replicated: each rank keeps at least one.
  const long long qkv_per_rank = s.heads * head_dim / s.tp + 2 * std::max(1LL, s.kv_heads / s.tp) * head_dim;
  const long long up = (s.gated ? 2 : 1) * s.ffn / s.tp;
  return {{"attn_pre_proj", s.tokens, qkv_per_rank, s.hidden},
          {"attn_post_proj", s.tokens, s.hidden, s.heads * head_dim / s.tp},
          {"mlp_up_proj", s.tokens, up, s.hidden},
          {"mlp_down_proj", s.tokens, s.hidden, s.ffn / s.tp}};
}

MeasurementSet import_vidur_table(const CsvTable& table) {
  MeasurementSet set;
  if (table.has_column("num_tokens")) {
    set = import_gemms(table);
  } else if (table.has_column("collective")) {
    set = import_collectives(table);
  } else {
    throw InputError(
        table.where(nullptr, 0),
        "not a vidur measurement file: expected an mlp_*.csv header (num_tokens, "
        "time_stats.<op>.median, ...) or a collective header (collective, size, num_workers, ...)");
  }
  set.files.push_back(table.file());
  set.points_per_file.push_back(static_cast<int>(set.points.size() + set.collectives.size()));
  return set;
}

MeasurementSet import_vidur_csv(const std::string& path) { return import_vidur_table(CsvTable::read(path)); }

}  // namespace rlsim
