// Loading the hardware, model and engine catalogs from YAML.
#include "sim/scenario/catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "sim/scenario/distribution_reader.h"
#include "sim/scenario/engine_reader.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {
namespace {

constexpr int64_t kMaxSequenceTokens = static_cast<int64_t>(kMaxTokensPerSequence);

/// A row naming a card the catalog already has: only the fields it gives change (a price, a NIC).
HardwareSpec patched_card(YamlReader& r, HardwareSpec card) {
  card.description = r.text_or("description", card.description);
  if (r.has("peak")) {
    YamlReader peak = r.map("peak");
    for (Precision p : all_precisions()) {
      const std::string key(to_string(p));
      if (auto value = peak.optional_quantity(key, Quantity::flop_rate)) card.peak_flops[p] = *value;
    }
    peak.finish();
  }
  card.mem_bw_bytes_per_s = r.quantity_or("memory_bandwidth", Quantity::bandwidth, card.mem_bw_bytes_per_s);
  card.mem_capacity_bytes = r.quantity_or("memory", Quantity::bytes, card.mem_capacity_bytes);
  card.intra_node_bw_bytes_per_s =
      r.quantity_or("intra_node_bandwidth", Quantity::bandwidth, card.intra_node_bw_bytes_per_s);
  card.nic_bw_bytes_per_s = r.quantity_or("nic_bandwidth", Quantity::bandwidth, card.nic_bw_bytes_per_s);
  card.tdp_watts = r.number_or("tdp_watts", card.tdp_watts, 1.0, 1e5);
  card.usd_per_hour = r.number_or("usd_per_hour", card.usd_per_hour, 0.0, 1e4);
  r.finish();
  return card;
}

HardwareSpec read_card(YamlReader& r, const std::map<std::string, HardwareSpec>& known) {
  HardwareSpec card;
  card.name = r.text("name");
  if (const auto it = known.find(card.name); it != known.end()) return patched_card(r, it->second);
  card.description = r.text_or("description", card.name);
  YamlReader peak = r.map("peak");
  for (Precision p : all_precisions()) {
    const std::string key(to_string(p));
    if (auto value = peak.optional_quantity(key, Quantity::flop_rate)) card.peak_flops[p] = *value;
  }
  peak.finish();
  if (!card.peak(Precision::bf16) && !card.peak(Precision::fp16)) {
    peak.fail_here("card '" + card.name + "' needs at least a bf16 or fp16 peak");
  }
  card.mem_bw_bytes_per_s = r.quantity("memory_bandwidth", Quantity::bandwidth);
  card.mem_capacity_bytes = r.quantity("memory", Quantity::bytes);
  card.intra_node_bw_bytes_per_s = r.quantity("intra_node_bandwidth", Quantity::bandwidth);
  card.nic_bw_bytes_per_s = r.quantity("nic_bandwidth", Quantity::bandwidth);
  card.tdp_watts = r.number("tdp_watts", 1.0, 1e5);
  card.usd_per_hour = r.number("usd_per_hour", 0.0, 1e4);
  r.finish();
  return card;
}

AttentionKind read_attention_kind(YamlReader& r) {
  const std::vector<std::pair<std::string, AttentionKind>> kinds{{"mha", AttentionKind::mha},
                                                                 {"gqa", AttentionKind::gqa},
                                                                 {"mqa", AttentionKind::mqa},
                                                                 {"mla", AttentionKind::mla},
                                                                 {"mfa", AttentionKind::mfa}};
  std::vector<std::string> names;
  std::string fallback;
  for (const auto& [name, kind] : kinds) {
    names.push_back(name);
    if (kind == AttentionConfig{}.kind) fallback = name;
  }
  const std::string chosen = r.choice_or("kind", names, fallback);
  for (const auto& [name, kind] : kinds) {
    if (name == chosen) return kind;
  }
  return AttentionConfig{}.kind;
}

AttentionConfig read_attention(YamlReader& r) {
  AttentionConfig a;
  a.kind = read_attention_kind(r);
  a.q_heads = static_cast<int>(r.integer("q_heads", 1, 4096));
  const bool latent = a.kind == AttentionKind::mla;
  const int64_t default_kv = a.kind == AttentionKind::mha ? a.q_heads : 1;
  a.kv_heads =
      static_cast<int>(a.kind == AttentionKind::gqa ? r.integer("kv_heads", 1, a.q_heads)
                                                    : r.integer_or("kv_heads", default_kv, 1, a.q_heads));
  a.head_dim =
      static_cast<int>(latent ? r.integer_or("head_dim", 0, 0, 4096) : r.integer("head_dim", 1, 4096));
  a.q_lora_rank = static_cast<int>(r.integer_or("q_lora_rank", a.q_lora_rank, 0, 1 << 20));
  a.kv_lora_rank = static_cast<int>(latent ? r.integer("kv_lora_rank", 1, 1 << 20)
                                           : r.integer_or("kv_lora_rank", 0, 0, 0));
  a.qk_rope_head_dim = static_cast<int>(latent ? r.integer("qk_rope_head_dim", 1, 4096)
                                               : r.integer_or("qk_rope_head_dim", 0, 0, 0));
  a.qk_nope_head_dim = static_cast<int>(latent ? r.integer("qk_nope_head_dim", 1, 4096)
                                               : r.integer_or("qk_nope_head_dim", 0, 0, 0));
  a.v_head_dim =
      static_cast<int>(latent ? r.integer("v_head_dim", 1, 4096) : r.integer_or("v_head_dim", 0, 0, 0));
  a.qkv_bias = r.flag_or("qkv_bias", a.qkv_bias);
  if (a.kind == AttentionKind::mha && a.kv_heads != a.q_heads)
    r.fail("kv_heads", "MHA needs kv_heads == q_heads");
  if ((a.kind == AttentionKind::mqa || a.kind == AttentionKind::mfa) && a.kv_heads != 1) {
    r.fail("kv_heads", "MQA and MFA share one K/V head: kv_heads must be 1");
  }
  if (a.kind == AttentionKind::gqa && a.q_heads % a.kv_heads != 0) {
    r.fail("kv_heads", "GQA needs q_heads to be a multiple of kv_heads");
  }
  r.finish();
  return a;
}

FfnConfig read_ffn(YamlReader& r) {
  FfnConfig f;
  f.intermediate_size = static_cast<int>(r.integer_or("intermediate_size", f.intermediate_size, 0, 1 << 22));
  f.gated = r.flag_or("gated", f.gated);
  f.routed_experts = static_cast<int>(r.integer_or("routed_experts", f.routed_experts, 0, 1 << 16));
  const bool moe = f.routed_experts > 0;
  f.experts_per_token = static_cast<int>(moe ? r.integer("experts_per_token", 1, f.routed_experts)
                                             : r.integer_or("experts_per_token", 0, 0, 0));
  f.shared_experts = static_cast<int>(r.integer_or("shared_experts", f.shared_experts, 0, 64));
  f.expert_intermediate_size = static_cast<int>(moe ? r.integer("expert_intermediate_size", 1, 1 << 22)
                                                    : r.integer_or("expert_intermediate_size", 0, 0, 0));
  f.shared_expert_intermediate_size = static_cast<int>(
      r.integer_or("shared_expert_intermediate_size", f.shared_expert_intermediate_size, 0, 1 << 22));
  for (int64_t layer : r.integer_list_or("dense_layers", 0, 100000))
    f.dense_layers.push_back(static_cast<int>(layer));
  if (!moe && f.intermediate_size == 0) r.fail_here("a dense FFN needs 'intermediate_size'");
  if (!f.dense_layers.empty() && f.intermediate_size == 0) {
    r.fail("dense_layers", "dense layers in an MoE model need 'intermediate_size'");
  }
  r.finish();
  return f;
}

/// The published parameter counts of a `published:` block, over `m`'s.
void read_published(YamlReader& r, ModelArch& m) {
  YamlReader published = r.map_or_empty("published");
  m.published_total_params = published.number_or("total_params", m.published_total_params, 0.0, 1e15);
  m.published_active_params = published.number_or("active_params", m.published_active_params, 0.0, 1e15);
  const std::string counted =
      published.choice_or("active_embeddings", {"both", "output_only", "none"}, "both");
  m.published_active_embeddings = counted == "none"          ? PublishedEmbeddings::none
                                  : counted == "output_only" ? PublishedEmbeddings::output_only
                                                             : PublishedEmbeddings::both;
  published.finish();
}

/// A row naming a model the catalog already has: only the fields it gives change (a context window,
/// a vocabulary); an `attention:` or `ffn:` block it gives replaces that block whole.
ModelArch patched_model(YamlReader& r, ModelArch m) {
  m.source = r.text_or("source", m.source);
  m.layers = static_cast<int>(r.integer_or("layers", m.layers, 1, 10000));
  m.hidden_size = static_cast<int>(r.integer_or("hidden_size", m.hidden_size, 1, 1 << 20));
  m.vocab_size = static_cast<int>(r.integer_or("vocab_size", m.vocab_size, 1, 1 << 24));
  m.tied_embeddings = r.flag_or("tied_embeddings", m.tied_embeddings);
  m.context_window_tokens =
      r.integer_or("context_window_tokens", m.context_window_tokens, 1, kMaxSequenceTokens);
  m.extended_context_tokens =
      r.integer_or("extended_context_tokens", m.extended_context_tokens, 0, kMaxSequenceTokens);
  if (r.has("attention")) {
    YamlReader attention = r.map("attention");
    m.attention = read_attention(attention);
  }
  if (r.has("ffn")) {
    YamlReader ffn = r.map("ffn");
    m.ffn = read_ffn(ffn);
  }
  if (r.has("published")) read_published(r, m);
  for (int layer : m.ffn.dense_layers) {
    if (layer >= m.layers)
      r.fail("layers", "dense layer " + std::to_string(layer) + " is past the last layer");
  }
  r.finish();
  return m;
}

ModelArch read_model(YamlReader& r, const std::map<std::string, ModelArch>& known) {
  ModelArch m;
  m.name = r.text("name");
  if (const auto it = known.find(m.name); it != known.end()) return patched_model(r, it->second);
  m.source = r.text("source");
  m.layers = static_cast<int>(r.integer("layers", 1, 10000));
  m.hidden_size = static_cast<int>(r.integer("hidden_size", 1, 1 << 20));
  m.vocab_size = static_cast<int>(r.integer("vocab_size", 1, 1 << 24));
  m.tied_embeddings = r.flag_or("tied_embeddings", m.tied_embeddings);
  m.context_window_tokens = r.integer("context_window_tokens", 1, kMaxSequenceTokens);
  m.extended_context_tokens = r.integer_or("extended_context_tokens", 0, 0, kMaxSequenceTokens);
  if (m.extended_context_tokens != 0 && m.extended_context_tokens <= m.context_window_tokens) {
    r.fail("extended_context_tokens", "expected a window longer than context_window_tokens (" +
                                          std::to_string(m.context_window_tokens) + "), or none");
  }
  YamlReader attention = r.map("attention");
  m.attention = read_attention(attention);
  YamlReader ffn = r.map("ffn");
  m.ffn = read_ffn(ffn);
  for (int layer : m.ffn.dense_layers) {
    if (layer >= m.layers)
      ffn.fail("dense_layers", "dense layer " + std::to_string(layer) + " is past the last layer");
  }
  read_published(r, m);
  r.finish();
  return m;
}

}  // namespace

namespace {

template <class Row>
std::vector<std::string> names_of(const std::map<std::string, Row>& rows) {
  std::vector<std::string> names;
  for (const auto& [name, row] : rows) names.push_back(name);
  return names;
}

/// The row `name` of `rows`, or an InputError at `where`: "unknown <what> 'x'; did you mean …".
template <class Row>
const Row& row_named(const std::map<std::string, Row>& rows, const std::string& name, const std::string& what,
                     const std::string& plural, const SourceLocation& where) {
  auto it = rows.find(name);
  if (it == rows.end()) {
    std::string message = "unknown " + what + " '" + name + "'";
    if (auto near = nearest_key(name, names_of(rows))) message += "; did you mean '" + *near + "'?";
    throw InputError(where, message + " Known " + plural + ": " + join(names_of(rows)));
  }
  return it->second;
}

}  // namespace

const HardwareSpec& Catalog::card(const std::string& name, const SourceLocation& where) const {
  return row_named(hardware, name, "GPU", "GPUs", where);
}

const ModelArch& Catalog::model(const std::string& name, const SourceLocation& where) const {
  return row_named(models, name, "model", "models", where);
}

const EngineOverhead& Catalog::engine(const std::string& name, const SourceLocation& where) const {
  return row_named(engines, name, "engine", "engines", where);
}

std::vector<std::string> Catalog::hardware_names() const { return names_of(hardware); }
std::vector<std::string> Catalog::model_names() const { return names_of(models); }
std::vector<std::string> Catalog::engine_names() const { return names_of(engines); }

std::string default_data_dir() {
  if (const char* env = std::getenv("RLSIM_DATA_DIR"); env && *env) return env;
  return RLSIM_DEFAULT_DATA_DIR;
}

void load_catalog_file(const std::string& path, Catalog& catalog) {
  YamlSource source = load_yaml_file(path);
  YamlReader root(source, source.root, "", YAML::Node(YAML::NodeType::Map));
  for (YamlReader& row : root.map_list_or_empty("hardware")) {
    HardwareSpec card = read_card(row, catalog.hardware);
    catalog.hardware[card.name] = std::move(card);
  }
  for (YamlReader& row : root.map_list_or_empty("models")) {
    ModelArch model = read_model(row, catalog.models);
    catalog.models[model.name] = std::move(model);
  }
  for (YamlReader& row : root.map_list_or_empty("engines")) {
    EngineOverhead engine = read_engine_preset(row);
    catalog.engines[engine.name] = std::move(engine);
  }
  root.finish();
}

Catalog load_builtin_catalog(const std::string& data_dir) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(data_dir) / "scenarios" / "catalog";
  if (!fs::is_directory(dir)) {
    throw InputError({dir.string(), 0, 0},
                     "built-in catalog folder not found (set RLSIM_DATA_DIR to the rlsim source tree)");
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  Catalog catalog;
  for (const auto& file : files) load_catalog_file(file.string(), catalog);
  return catalog;
}

}  // namespace rlsim
