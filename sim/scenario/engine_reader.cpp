// Engine presets and profile engine blocks from YAML.
#include "sim/scenario/engine_reader.h"

#include "sim/scenario/plugins.h"

namespace rlsim {
namespace {

// A term above one second a layer or an iteration is a unit mistake (milliseconds written as s).
constexpr double kMaxTermSeconds = 1.0;

void read_term(YamlReader& r, const char* key, std::optional<double>& term) {
  if (r.has(key)) term = r.number(key, 0.0, kMaxTermSeconds);
}

}  // namespace

EngineOverheadOverride read_engine_terms(YamlReader& r) {
  EngineOverheadOverride o;
  read_term(r, "cpu_fixed_s", o.cpu_fixed_s);
  read_term(r, "cpu_per_sequence_s", o.cpu_per_sequence_s);
  read_term(r, "cpu_per_token_s", o.cpu_per_token_s);
  read_term(r, "launch_gap_per_layer_s", o.launch_gap_per_layer_s);
  read_term(r, "graph_gap_per_layer_s", o.graph_gap_per_layer_s);
  return o;
}

EngineOverhead read_engine_preset(YamlReader& r) {
  const EngineOverhead d;
  EngineOverhead e;
  e.name = r.text("name");
  e.description = r.text_or("description", e.name);
  e.source = r.text("source");
  e = read_engine_terms(r).applied_to(e);
  e.graph_max_tokens = r.integer_or("graph_max_tokens", d.graph_max_tokens, 0, int64_t{1} << 24);
  e.graph_mixed = r.flag_or("graph_mixed", d.graph_mixed);
  e.overlap_cpu = r.flag_or("overlap_cpu", d.overlap_cpu);
  e.scheduler = r.choice_or("scheduler", ReplicaSchedulerRegistry::instance().names(), d.scheduler);
  e.api_server_s = r.number_or("api_server_s", d.api_server_s, 0.0, kMaxTermSeconds);
  r.finish();
  return e;
}

}  // namespace rlsim
