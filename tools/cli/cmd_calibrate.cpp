// `rlsim calibrate --input F... --hardware H --out P.yaml`: fits a hardware profile from measured
// kernel and collective timings (our kernel suite's JSON, or vidur CSVs) and prints its error; with
// --format serving, an engine's time beyond kernels from measured iterations or batches
// (calibrate_serving.h); with --format verl, a whole RL run's terms from its per-step log and the
// scenario that describes it (calibrate_rl_run.h).
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "calibrate/aiconfigurator_importer.h"
#include "calibrate/device_facts.h"
#include "calibrate/engine_gap_fitter.h"
#include "calibrate/gemm_table_importer.h"
#include "calibrate/measurement_bounds.h"
#include "calibrate/profile_fitter.h"
#include "calibrate/profile_writer.h"
#include "calibrate/rlsim_json_importer.h"
#include "calibrate/vidur_importer.h"
#include "models/units.h"
#include "sim/scenario/catalog.h"
#include "sim/scenario/profile_loader.h"
#include "sim/scenario/scenario.h"
#include "tools/cli/calibrate_rl_run.h"
#include "tools/cli/calibrate_serving.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/report/output_dir.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

/// A quantity to four significant digits, for the summary table.
std::string short_quantity(double value, Quantity kind) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return format_quantity(std::strtod(text, nullptr), kind);
}

class CalibrateCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("calibrate",
                                        "Fit a hardware profile from measured kernel and collective timings");
    sub->footer(
        "Fits, per op class, a shape-aware model (tile and wave quantisation over the SMs, memory-bound\n"
        "small-M regime, launch overhead) and alpha-beta collectives, and reports each fit's error on\n"
        "points it did not see (leave one model out when the inputs span several models). Inference\n"
        "engines' own all-reduces (aiconfigurator tables) are kept as tables by message size, each\n"
        "scored by pricing every inner size from its neighbours.\n\n"
        "Examples:\n"
        "  rlsim calibrate --input measurements.json --hardware H200 --out calibrate/profiles/h200.yaml\n"
        "  rlsim calibrate --hardware H100 --date 2024-05-01 --out h100.yaml \\\n"
        "      --input data/measured/vidur-h100/mlp_Llama-2-7b-hf.csv \\\n"
        "      --input data/measured/vidur-h100/all_reduce_dgx.csv \\\n"
        "      --input data/measured/aiconfigurator-h100/custom_allreduce_perf_vllm-0.19.0.csv\n"
        "  rlsim calibrate --format gemm-table --hardware H800 --date 2025-04-09 --out h800-fp8.yaml \\\n"
        "      --input data/measured/kernels/deepgemm-h800-fp8.csv\n"
        "  rlsim calibrate --hardware B200 --out b200.yaml \\\n"
        "      --input data/measured/aiconfigurator-b200/gemm_perf_trtllm-1.3.0rc10.csv\n"
        "  rlsim calibrate --format serving --hardware H100 --input iterations.csv \\\n"
        "      --profile calibrate/profiles/h100.yaml --out h100-serving.yaml\n"
        "  rlsim calibrate --format verl --scenario my-run.yaml --input verl-console.log --out "
        "verl-h100.yaml\n\n"
        "--format verl reads a verl run's per-step metrics (its console log, its file logger's JSON lines or "
        "a\n"
        "CSV export: timing_s/gen, timing_s/old_log_prob, timing_s/ref, timing_s/update_actor, "
        "timing_s/step,\n"
        "response_length/mean, prompt_length/mean) with the scenario that describes the run, simulates each\n"
        "logged step at its logged lengths, fits one efficiency per phase (generation, forward passes,\n"
        "update: rlsim's time over the run's), scores them on every fifth step held out, and writes them\n"
        "as the profile's rl_run block (beside the scenario's own profile, if it has one). Set the profile\n"
        "in the scenario (profile: FILE) and every what-if on that card runs at the run's pace.");
    sub->add_option("--input", inputs_,
                    "Measurement files (repeat the flag for several); verl: the run's log")
        ->required();
    sub->add_option("--format", format_,
                    "rlsim (kernel-suite JSON), vidur (CSV), gemm-table (published GEMM throughput: "
                    "group,groups,m,n,k,dtype,tflops) or serving (measured iterations or whole "
                    "batches: model,hardware,tp,batch,prompt_tokens,context_tokens,phase,measured_ms; "
                    "phase prefill, decode, or generate = a static batch's latency, context_tokens its "
                    "prompt + output), aiconfigurator (an inference engine's own all-reduce by message "
                    "size: framework,...,kernel_source,allreduce_dtype,num_gpus,message_size,latency; or "
                    "its linear layers' GEMMs: framework,...,gemm_dtype,m,n,k,latency); "
                    "verl (an RL run's per-step log, with --scenario); "
                    "default: by file extension (.json rlsim, .csv vidur or aiconfigurator by its header)")
        ->check(CLI::IsMember({"rlsim", "vidur", "gemm-table", "serving", "aiconfigurator", "verl"}));
    sub->add_option("--hardware", hardware_,
                    "Catalog card the efficiencies are relative to (rlsim list hardware); required but "
                    "for verl, whose card is the scenario's training pool's");
    sub->add_option("--scenario", scenario_, "verl: the scenario that describes the logged run");
    sub->add_option("--set", sets_, "verl: overrides of the scenario, a.b=value (repeat for several)");
    sub->add_option("--jobs", jobs_, "verl: steps simulated at once (one process each)")
        ->check(CLI::Range(1, 256));
    sub->add_flag("--quiet,-q", quiet_, "verl: no progress on stderr (shown only on a terminal anyway)");
    sub->add_option("--out", out_, "Profile YAML to write")->required();
    sub->add_option("--date", date_,
                    "Measurement date for the profile (default: from the input, else 'unknown')");
    sub->add_option("--profile", base_profile_,
                    "serving: the profile whose kernel and all-reduce fits predict the kernels (default: "
                    "datasheet roofline); the output is it plus the engine block");
    sub->add_option(
        "--engine", engine_,
        "serving: the engine preset whose terms are fitted (default " + RolloutSpec{}.engine + ")");
    sub->add_option("--sm-count", sm_count_, "SMs of the card (default: from the input, else known cards)")
        ->check(CLI::Range(1, 100'000));
    sub->add_option("--l2-cache", l2_text_,
                    "L2 cache size, e.g. 50MB (default: from the input, else known cards)");
    return sub;
  }

  int run() override {
    std::vector<std::string> read = inputs_;
    for (const std::string& file : {scenario_, base_profile_})
      if (!file.empty()) read.push_back(file);
    refuse_overwriting_inputs(out_, read, "--out");
    if (format_ == "verl") return run_verl();
    if (!scenario_.empty() || !sets_.empty())
      throw InputError(flag_location("--scenario"), "--scenario and --set go with --format verl only");
    if (hardware_.empty())
      throw InputError(flag_location("--hardware"), "--hardware is required (rlsim list hardware)");
    const Catalog catalog = load_builtin_catalog();
    CalibrationSettings settings;
    settings.card = catalog.card(hardware_, flag_location("--hardware"));
    settings.date = date_;
    if (format_ == "serving") return run_serving(catalog, settings.card);
    MeasurementSet measurements;
    for (const std::string& input : inputs_) measurements.merge(read_input(input));
    if (measurements.points.empty() && measurements.collectives.empty() &&
        measurements.engine_allreduces.empty()) {
      throw InputError(flag_location("--input"), "the inputs hold no measurements");
    }
    check_same_card(measurements, settings.card);
    check_measurements_within_peak(measurements, settings.card);
    resolve_device(measurements, settings);
    const HardwareProfile profile = fit_profile(measurements, settings);
    const auto engine = fit_engine_gaps(measurements);
    write_atomically("# Made from the repository root by: " + command_line() + "\n" +
                     profile_to_yaml(profile, engine));
    print_summary(profile);
    if (engine) print_engine(*engine);
    return kExitOk;
  }

 private:
  int run_verl() const {
    if (scenario_.empty())
      throw InputError(flag_location("--scenario"),
                       "--format verl needs --scenario FILE: the run's scenario");
    if (inputs_.size() != 1)
      throw InputError(flag_location("--input"), "--format verl takes one log (--input once)");
    RlRunRequest request;
    request.scenario = scenario_;
    request.options.overrides = sets_;
    request.log = inputs_.front();
    request.date = date_;
    request.sm_count = sm_count_;
    request.jobs = jobs_;
    request.progress = !quiet_;
    request.card = hardware_;
    prepare_output_file(std::filesystem::path(out_), "--out");  // before minutes of simulation
    const RlRunCalibration c = calibrate_rl_run(request);
    write_atomically("# Made from the repository root by: " + command_line() + "\n" +
                     profile_to_yaml(c.profile));
    print_rl_run(c);
    return kExitOk;
  }

  void print_rl_run(const RlRunCalibration& c) const {
    const RlRunTerms& t = *c.profile.rl_run;
    std::cout << "RL run terms for " << t.card << " (" << t.framework << ") from " << c.log_steps
              << (c.log_steps == 1 ? " step of " : " steps of ") << inputs_.front() << ": " << c.fit_steps
              << " fitted, " << c.held_out_steps << " held out"
              << (c.held_out_steps > 0 ? " (every fifth)" : "") << ", " << c.simulations
              << " simulations; written to " << out_ << "\n";
    std::cout << std::left << std::setw(9) << "phase" << std::setw(14) << "logged (fit)" << std::setw(14)
              << "rlsim before" << std::setw(13) << "rlsim after" << std::setw(12) << "efficiency"
              << std::setw(18) << "held-out error"
              << "logged as\n";
    for (const RlRunPhase& p : c.phases) {
      const bool step = p.name == "step";
      std::cout << std::setw(9) << p.name << std::setw(14) << short_quantity(p.logged_s, Quantity::duration)
                << std::setw(14) << short_quantity(p.uncalibrated_s, Quantity::duration) << std::setw(13)
                << short_quantity(p.calibrated_s, Quantity::duration) << std::setw(12)
                << (step ? std::string("-") : percent_of(p.efficiency)) << std::setw(18)
                << (c.held_out_steps > 0 ? percent_of(p.held_out_mape) + " (was " +
                                               percent_of(p.held_out_uncalibrated_mape) + ")"
                                         : std::string("-"))
                << p.logged_as << "\n";
    }
    if (c.held_out_steps > 0)
      std::cout << "held-out step time: " << percent_of(t.error.held_out_mape) << " mean error, "
                << percent_of(t.error.held_out_max_error) << " max, on " << c.held_out_steps
                << " steps; without these terms " << percent_of(t.error.datasheet_held_out_mape) << "\n";
    for (const std::string& note : c.notes) std::cout << "note: " << note << "\n";
    std::cout
        << "efficiency: rlsim's modelled time over the run's (below 100 %: the run is slower than rlsim "
           "models). Use it: profile: "
        << out_ << " in the scenario.\n";
  }

  int run_serving(const Catalog& catalog, const HardwareSpec& card) const {
    const std::string preset = engine_.empty() ? RolloutSpec{}.engine : engine_;
    ServingCalibration c = calibrate_serving(catalog, card, inputs_, base_profile_, preset);
    if (!date_.empty()) c.profile.date = date_;
    if (c.profile.date.empty()) c.profile.date = "unknown";  // as --help says: the loader needs one
    write_atomically("# Made from the repository root by: " + command_line() + "\n" +
                     profile_to_yaml(c.profile));
    const EngineOverheadOverride& t = c.fit.terms;
    auto us = [](const std::optional<double>& v) {
      return v ? short_quantity(*v, Quantity::duration) : std::string("- (the preset's, below)");
    };
    std::cout << "engine terms for " << card.name << " from " << c.samples
              << " measurements (iterations or whole batches) written to " << out_ << "\n"
              << "  cpu_fixed " << us(t.cpu_fixed_s) << ", cpu_per_sequence " << us(t.cpu_per_sequence_s)
              << ", cpu_per_token " << us(t.cpu_per_token_s) << "\n"
              << "  launch_gap_per_layer " << us(t.launch_gap_per_layer_s) << ", graph_gap_per_layer "
              << us(t.graph_gap_per_layer_s) << "\n"
              << (c.fit.kept_at_preset.empty() ? "" : "kept at the preset " + preset + "'s values:\n");
    for (const std::string& why : c.fit.kept_at_preset) std::cout << "  " << why << "\n";
    for (const std::string& bound : c.fit.at_bound) std::cout << "  " << bound << "\n";
    std::cout << "held-out MAPE " << percent_of(c.fit.error.held_out_mape) << " (max "
              << percent_of(c.fit.error.held_out_max_error) << ") on " << c.fit.error.held_out_points
              << " held-out measurements, " << c.fit.held_out_region
              << "; the preset's own terms: " << percent_of(c.fit.preset_held_out_mape) << "\n";
    return kExitOk;
  }

  MeasurementSet read_input(const std::string& path) const {
    std::string format = format_;
    if (format.empty()) {
      const std::string ext = std::filesystem::path(path).extension().string();
      if (ext == ".json")
        format = "rlsim";
      else if (ext == ".csv")
        format = "vidur";
      else
        throw InputError({path, 0, 0},
                         "cannot tell the format from the extension; pass --format rlsim or --format vidur");
    }
    if (format == "rlsim") return import_rlsim_json(path);
    if (format == "gemm-table") return import_gemm_table_csv(path);
    // A CSV read by its header: aiconfigurator's engine all-reduce or GEMM tables, else vidur's files.
    const CsvTable table = CsvTable::read(path);
    if (format == "aiconfigurator" || format_.empty()) {
      if (is_aiconfigurator_gemm(table)) return import_aiconfigurator_gemm_table(table);
      if (format == "aiconfigurator" || is_aiconfigurator_allreduce(table))
        return import_aiconfigurator_allreduce_table(table);
    }
    return import_vidur_table(table);
  }

  /// The command that rebuilds this profile, options as given (recorded in its first line).
  std::string command_line() const {
    std::string line = "rlsim calibrate";
    if (!format_.empty()) line += " --format " + format_;
    if (!hardware_.empty()) line += " --hardware " + hardware_;
    if (!date_.empty()) line += " --date " + date_;
    if (sm_count_ > 0) line += " --sm-count " + std::to_string(sm_count_);
    if (!l2_text_.empty()) line += " --l2-cache " + l2_text_;
    if (!base_profile_.empty()) line += " --profile " + base_profile_;
    if (!engine_.empty()) line += " --engine " + engine_;
    if (!scenario_.empty()) line += " --scenario " + scenario_;
    for (const std::string& set : sets_) line += " --set " + set;
    line += " --out <this file>";  // the same inputs give the same bytes wherever written
    for (const std::string& input : inputs_) line += " --input " + input;
    return line;
  }

  /// Measurements that name their device must name the card they are fitted to: an H200's timings
  /// are no H100 profile. The card's name must be one or more whole words of the device's, run
  /// together ("NVIDIA H100 80GB HBM3" is an H100; "NVIDIA RTX PRO 6000 Blackwell Server Edition" an
  /// RTXPRO6000; "NVIDIA H200" is no H20).
  void check_same_card(const MeasurementSet& m, const HardwareSpec& card) const {
    if (m.device.empty()) return;
    auto upper = [](std::string text) {
      for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return text;
    };
    std::vector<std::string> words{""};
    for (const char c : upper(m.device)) {
      if (std::isalnum(static_cast<unsigned char>(c)))
        words.back() += c;
      else if (!words.back().empty())
        words.emplace_back();
    }
    const std::string name = upper(card.name);
    for (size_t first = 0; first < words.size(); ++first) {
      std::string run;
      for (size_t last = first; last < words.size() && run.size() < name.size(); ++last) run += words[last];
      if (run == name) return;
    }
    throw InputError(flag_location("--hardware"), "the measurements were taken on '" + m.device +
                                                      "', not on " + card.name +
                                                      ": pass the card they were taken on");
  }

  void resolve_device(const MeasurementSet& m, CalibrationSettings& s) const {
    const auto facts = known_device_facts(s.card.name);
    s.sm_count = sm_count_ > 0 ? sm_count_ : m.sm_count > 0 ? m.sm_count : facts ? facts->sm_count : 0;
    if (s.sm_count <= 0) {
      throw InputError(
          flag_location("--sm-count"),
          "the SM count of " + s.card.name + " is not in the input and not known; pass --sm-count N");
    }
    if (!l2_text_.empty()) {
      std::string why;
      auto l2 = parse_quantity(l2_text_, Quantity::bytes, &why);
      if (!l2) throw InputError(flag_location("--l2-cache"), "expected " + why);
      s.l2_bytes = *l2;
    } else {
      s.l2_bytes = m.l2_bytes > 0.0 ? m.l2_bytes : facts ? facts->l2_bytes : 0.0;
    }
  }

  /// Writes the profile, once rlsim's own profile reader accepts it: a fit that reads back as
  /// nonsense (an infinite exponent from degenerate timings) is refused, not written.
  void write_atomically(const std::string& text) const {
    try {
      load_profile_text(text, out_);
    } catch (const InputError& e) {
      throw InputError(flag_location("--input"), "the measurements fit a profile rlsim cannot use (" +
                                                     e.message() +
                                                     "); check the inputs for timings that are not physical");
    }
    prepare_output_file(out_, "--out");
    replace_file_atomically(out_, text);
  }

  void print_summary(const HardwareProfile& p) const {
    std::cout << "profile for " << p.card << " (" << p.device << ", " << p.sm_count << " SMs) written to "
              << out_ << "\n";
    if (!p.ops.empty()) {
      std::cout << std::left << std::setw(20) << "op class" << std::setw(10) << "precision" << std::setw(8)
                << "points" << std::setw(10) << "held out" << std::setw(10) << "MAPE" << std::setw(11)
                << "max err" << std::setw(15) << "roofline+fit" << std::setw(11) << "datasheet"
                << std::setw(10) << "in-shape"
                << "jitter floor\n";
      for (const auto& op : p.ops) {
        std::cout << std::setw(20) << to_string(op.op_class) << std::setw(10) << to_string(op.precision)
                  << std::setw(8) << op.error.fit_points << std::setw(10) << op.error.held_out_points
                  << std::setw(10) << percent_of(op.error.held_out_mape) << std::setw(11)
                  << percent_of(op.error.held_out_max_error) << std::setw(15)
                  << percent_of(op.error.baseline_held_out_mape) << std::setw(11)
                  << percent_of(op.error.datasheet_held_out_mape) << std::setw(10)
                  << (op.error.in_shape_held_out_points > 0 ? percent_of(op.error.in_shape_held_out_mape)
                                                            : std::string("-"))
                  << (op.error.jitter_floor_mape > 0.0 ? percent_of(op.error.jitter_floor_mape)
                                                       : std::string("-"))
                  << "\n";
      }
    }
    if (!p.collectives.empty()) {
      std::cout << std::left << std::setw(12) << "collective" << std::setw(6) << "gpus" << std::setw(10)
                << "per node" << std::setw(10) << "alpha" << std::setw(12) << "bandwidth" << std::setw(10)
                << "MAPE"
                << "max err\n";
      for (const auto& c : p.collectives) {
        std::cout << std::setw(12) << enum_name(c.collective) << std::setw(6) << c.gpus << std::setw(10)
                  << c.gpus_per_node << std::setw(10) << short_quantity(c.alpha_s, Quantity::duration)
                  << std::setw(12) << short_quantity(c.bandwidth_bytes_per_s, Quantity::bandwidth)
                  << std::setw(10) << percent_of(c.error.held_out_mape)
                  << percent_of(c.error.held_out_max_error) << "\n";
      }
    }
    if (!p.engine_allreduces.empty()) {
      std::cout << std::left << std::setw(20) << "engine all-reduce" << std::setw(6) << "gpus" << std::setw(8)
                << "launch" << std::setw(8) << "sizes" << std::setw(12) << "smallest" << std::setw(10)
                << "MAPE"
                << "max err\n";
      for (const auto& t : p.engine_allreduces) {
        std::cout << std::setw(20) << t.engine << std::setw(6) << t.gpus << std::setw(8)
                  << (t.cuda_graph ? "graph" : "eager") << std::setw(8) << t.bytes.size() << std::setw(12)
                  << short_quantity(t.seconds.front(), Quantity::duration) << std::setw(10)
                  << percent_of(t.error.held_out_mape) << percent_of(t.error.held_out_max_error) << "\n";
      }
      std::cout
          << "An engine all-reduce is a table by message size, not a fit: its MAPE prices each inner size\n"
             "from its two neighbours; smallest is the time at the smallest size.\n";
    }
    std::cout << "MAPE and max err are on held-out points; roofline+fit is a plain roofline with one fitted\n"
                 "efficiency and overhead, datasheet the bare datasheet peaks (max of FLOPs over peak and\n"
                 "bytes over bandwidth, without the efficiencies and launch overhead of rlsim's default\n"
                 "roofline), on the same points; jitter floor is how far the measurements stray from the\n"
                 "line through their neighbours in tokens.\n"
                 "MAPE is cross-shape (the fitted model on other models' shapes); in-shape is the measured\n"
                 "tables on every other token count withheld ("
              << p.measured_shapes.size()
              << " measured shapes, which the profile prices from their tables).\n";
  }

  static void print_engine(const EngineGaps& g) {
    std::cout << "engine gaps per decoder layer (whole layer minus its kernels alone, median of "
              << g.decode_layers << " decode shapes): eager launches "
              << short_quantity(g.launch_gap_per_layer_s, Quantity::duration) << ", CUDA graph "
              << short_quantity(g.graph_gap_per_layer_s, Quantity::duration) << "; prefill shapes "
              << short_quantity(g.prefill_launch_gap_per_layer_s, Quantity::duration)
              << "; empty-kernel launch " << short_quantity(g.kernel_launch_s, Quantity::duration) << "\n";
  }

  std::vector<std::string> inputs_;
  std::string format_;
  std::string hardware_;
  std::string out_;
  std::string date_;
  int sm_count_ = 0;
  std::string l2_text_;
  std::string base_profile_;
  std::string engine_;
  std::string scenario_;
  std::vector<std::string> sets_;
  int jobs_ = 2;
  bool quiet_ = false;
};

}  // namespace
RLSIM_REGISTER_COMMAND(CalibrateCommand, "calibrate", 70);
}  // namespace rlsim
