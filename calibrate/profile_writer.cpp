// YAML text of a profile: quantities with units (models/units.h), ratios as plain numbers.
#include "calibrate/profile_writer.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "models/units.h"

namespace rlsim {
namespace {

/// Six significant digits: fits are not more precise than that, and the file stays readable.
double rounded(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return std::strtod(text, nullptr);
}
std::string number(double value) { return format_number(rounded(value)); }
std::string quantity(double value, Quantity kind) { return format_quantity(rounded(value), kind); }

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string percent_note(double ratio) {
  return format_number(static_cast<double>(static_cast<long long>(ratio * 1000.0 + 0.5)) / 10.0) + "%";
}

/// `held_out` says which points were held out (each fitter holds out its own).
void write_error(std::ostringstream& out, const FitError& e, const std::string& indent, bool references,
                 const std::string& held_out) {
  out << indent << "error:  # relative; held-out points scored by fits that did not see them\n";
  out << indent << "  fit_points: " << e.fit_points << "\n";
  out << indent << "  held_out_points: " << e.held_out_points << "  # " << held_out << "\n";
  out << indent << "  held_out_mape: " << number(e.held_out_mape) << "  # " << percent_note(e.held_out_mape)
      << "\n";
  out << indent << "  held_out_max_error: " << number(e.held_out_max_error) << "  # "
      << percent_note(e.held_out_max_error) << "\n";
  if (references) {
    out << indent << "  baseline_held_out_mape: " << number(e.baseline_held_out_mape)
        << "  # plain roofline, one fitted efficiency + overhead: " << percent_note(e.baseline_held_out_mape)
        << "\n";
    out << indent << "  datasheet_held_out_mape: " << number(e.datasheet_held_out_mape)
        << "  # uncalibrated datasheet roofline: " << percent_note(e.datasheet_held_out_mape) << "\n";
  }
  if (e.in_shape_held_out_points > 0) {
    out << indent << "  in_shape_held_out_points: " << e.in_shape_held_out_points
        << "  # every other token count of each measured shape\n";
    out << indent << "  in_shape_held_out_mape: " << number(e.in_shape_held_out_mape) << "  # "
        << percent_note(e.in_shape_held_out_mape) << "\n";
    out << indent << "  in_shape_held_out_max_error: " << number(e.in_shape_held_out_max_error) << "  # "
        << percent_note(e.in_shape_held_out_max_error) << "\n";
  }
  if (e.jitter_floor_mape > 0.0) {
    out << indent << "  jitter_floor_mape: " << number(e.jitter_floor_mape)
        << "  # each point vs the line through its neighbours in tokens: "
        << percent_note(e.jitter_floor_mape) << "\n";
  }
}

void write_rl_run(std::ostringstream& out, const RlRunTerms& t) {
  out << "rl_run:  # a whole RL run's phases: rlsim's modelled time over the run's, per phase "
         "(rlsim calibrate --format "
      << t.framework << ")\n"
      << "  framework: " << quoted(t.framework) << "\n"
      << "  generation_efficiency: " << number(t.generation_efficiency) << "  # rollout iterations\n"
      << "  forward_efficiency: " << number(t.forward_efficiency) << "  # old_log_prob, ref, values\n"
      << "  update_efficiency: " << number(t.update_efficiency)
      << "  # update_actor's passes and optimizer step\n";
  write_error(out, t.error, "  ", false, "every fifth step of the log; the step time");
  out << "    datasheet_held_out_mape: " << number(t.error.datasheet_held_out_mape)
      << "  # the same steps without these terms: " << percent_note(t.error.datasheet_held_out_mape) << "\n";
}

/// Only when measured, so profiles without them keep their bytes.
void write_engine_allreduces(std::ostringstream& out, const std::vector<EngineAllReduce>& tables) {
  if (tables.empty()) return;
  out << "engine_allreduces:  # inference engines' own TP all-reduces, times by message size; they "
         "price the TP all-reduces of instances running that engine preset\n";
  for (const auto& t : tables) {
    out << "  - engine: " << t.engine << "\n"
        << "    gpus: " << t.gpus << "\n"
        << "    launch: " << (t.cuda_graph ? "graph" : "eager") << "\n"
        << "    message_bytes: [";
    for (size_t i = 0; i < t.bytes.size(); ++i) out << (i ? ", " : "") << format_number(t.bytes[i]);
    out << "]\n    time_us: [";
    for (size_t i = 0; i < t.seconds.size(); ++i) out << (i ? ", " : "") << number(t.seconds[i] * 1e6);
    out << "]\n";
    write_error(out, t.error, "    ", false, "each inner size, priced from its two neighbours");
  }
}

void write_measured_shapes(std::ostringstream& out, const std::vector<MeasuredShape>& shapes) {
  out << "measured_shapes:" << (shapes.empty() ? " []" : "  # times by token count; they price these shapes")
      << "\n";
  for (const auto& s : shapes) {
    out << "  - op_class: " << to_string(s.op_class) << "\n"
        << "    precision: " << to_string(s.precision) << "\n"
        << "    n: " << s.n << "\n"
        << "    k: " << s.k << "\n"
        << "    groups: " << s.groups << "\n"
        << "    tokens: [";
    for (size_t i = 0; i < s.tokens.size(); ++i) out << (i ? ", " : "") << s.tokens[i];
    out << "]\n    time_us: [";
    for (size_t i = 0; i < s.seconds.size(); ++i) out << (i ? ", " : "") << number(s.seconds[i] * 1e6);
    out << "]\n";
  }
}

}  // namespace

std::string profile_to_yaml(const HardwareProfile& p, const std::optional<EngineGaps>& engine) {
  std::ostringstream out;
  out << "# rlsim hardware profile, written by `rlsim calibrate` (see calibrate/README.md).\n"
      << "# Efficiencies are fractions of the datasheet figures of `card` in the hardware catalog.\n"
      << "card: " << quoted(p.card) << "\n"
      << "device: " << quoted(p.device) << "\n"
      << "date: " << quoted(p.date) << "\n"
      << "sm_count: " << p.sm_count << "\n"
      << "l2_cache: " << (p.l2_bytes > 0.0 ? quantity(p.l2_bytes, Quantity::bytes) : "0B") << "\n";
  out << "sources:" << (p.sources.empty() ? " []" : "") << "\n";
  for (const auto& s : p.sources) out << "  - {file: " << quoted(s.file) << ", points: " << s.points << "}\n";
  out << "ops:" << (p.ops.empty() ? " []" : "") << "\n";
  for (const auto& op : p.ops) {
    const KernelFit& f = op.fit;
    out << "  - op_class: " << to_string(op.op_class) << "\n"
        << "    precision: " << to_string(op.precision) << "\n"
        << "    model: tiled_roofline\n"
        << "    launch_overhead: " << quantity(f.launch_overhead_s, Quantity::duration) << "\n"
        << "    compute_efficiency: " << number(f.compute_efficiency) << "\n"
        << "    memory_efficiency: " << number(f.memory_efficiency) << "\n"
        << "    tile_k_overhead: " << number(f.tile_k_overhead) << "\n"
        << "    tile_edge_cost: " << number(f.tile_edge_cost) << "\n"
        << "    overlap_exponent: " << number(f.overlap_exponent) << "\n"
        << "    wave_quantization: " << number(f.wave_quantization) << "\n"
        << "    l2_band: " << number(f.l2_band) << "\n";
    write_error(out, op.error, "    ", true, "cross-shape: other models' shapes");
  }
  out << "collectives:" << (p.collectives.empty() ? " []" : "") << "\n";
  for (const auto& c : p.collectives) {
    out << "  - collective: " << enum_name(c.collective) << "\n"
        << "    gpus: " << c.gpus << "\n"
        << "    gpus_per_node: " << c.gpus_per_node << "\n"
        << "    alpha: " << quantity(c.alpha_s, Quantity::duration) << "\n"
        << "    bandwidth: " << quantity(c.bandwidth_bytes_per_s, Quantity::bandwidth)
        << "  # message bytes / time\n"
        << "    min_message: " << quantity(c.min_bytes, Quantity::bytes) << "\n"
        << "    max_message: " << quantity(c.max_bytes, Quantity::bytes) << "\n";
    write_error(out, c.error, "    ", false, "every fifth message size");
  }
  write_engine_allreduces(out, p.engine_allreduces);
  // The engine block: terms fitted from measured iterations (p.engine, `--format serving`) and the
  // launch and graph gaps the kernel suite measured (`engine`), which take precedence.
  if (!p.engine.empty() || engine) {
    EngineOverheadOverride terms = p.engine;
    if (engine) {
      terms.launch_gap_per_layer_s = engine->launch_gap_per_layer_s;
      terms.graph_gap_per_layer_s = engine->graph_gap_per_layer_s;
    }
    out << "engine:  # the inference engine's time beyond kernels, seconds "
           "(models/timing/engine_overhead.h)\n";
    if (engine)
      out << "  # launch and graph gaps: a decoder layer's forward as a whole minus its kernels alone, "
             "median "
             "over decode shapes ("
          << engine->decode_layers << ")\n";
    auto term = [&](const char* key, const std::optional<double>& value) {
      if (value) out << "  " << key << ": " << number(*value) << "\n";
    };
    term("cpu_fixed_s", terms.cpu_fixed_s);
    term("cpu_per_sequence_s", terms.cpu_per_sequence_s);
    term("cpu_per_token_s", terms.cpu_per_token_s);
    term("launch_gap_per_layer_s", terms.launch_gap_per_layer_s);
    term("graph_gap_per_layer_s", terms.graph_gap_per_layer_s);
    if (engine)
      out << "  # measured, not used: prefill-shape gap " << number(engine->prefill_launch_gap_per_layer_s)
          << " s per layer; empty-kernel launch " << number(engine->kernel_launch_s) << " s\n";
    if (!p.engine_range.empty()) {
      const EngineFitRange& r = p.engine_range;
      out << "  range:  # the shapes these terms were fitted on; rlsim says where a run leaves them\n"
          << "    batch: [" << r.batch_min << ", " << r.batch_max << "]\n"
          << "    tp: [" << r.tp_min << ", " << r.tp_max << "]\n"
          << "    context: [" << r.context_min << ", " << r.context_max << "]\n";
    }
    if (!p.engine.empty()) write_error(out, p.engine_error, "  ", false, p.engine_held_out_region);
  }
  if (p.rl_run) write_rl_run(out, *p.rl_run);
  write_measured_shapes(out, p.measured_shapes);
  return out.str();
}

}  // namespace rlsim
