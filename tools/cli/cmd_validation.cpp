// `rlsim validation [--cases M.yaml] [--out DIR] [--only NAME]… [--jobs N]`: runs every case of the
// validation manifest (scenarios/validation/cases.yaml: published measurements and the scenarios
// that mirror their setups), each in a process of its own, reads the case's metric from its
// metrics.json and judges it against the published figure. Prints the table and writes
// DIR/validation.csv, DIR/record.csv (tools/validation/validation_record.h) and each run's outputs
// in DIR/<case>/ (cases with the same scenario and overrides share one run, filed under the first
// of them). A case needing a scenario kind this
// build lacks is skipped (named); a known gap is reported loudly but does not fail the run. An op
// case (one kernel on one card) is priced here, without a simulation; its metrics.json says how.
// `--near FILE [--set a.b=v]…` runs only the cases nearest to a user's scenario, with its overrides
// (tools/validation/case_nearness.h).
// Exit 0 when no case fails, 3 when one leaves its tolerance, 2 on bad input.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "sim/process/child_pool.h"
#include "sim/scenario/catalog.h"
#include "sim/scenario/profile_loader.h"
#include "tools/cli/command.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/output_dir.h"
#include "tools/report/progress.h"
#include "tools/validation/case_nearness.h"
#include "tools/validation/op_case.h"
#include "tools/validation/validation_record.h"
#include "tools/validation/validation_report.h"

namespace rlsim {
namespace {

/// What metrics.json holds where `path` stops matching: "under 'step_time_s': max, mean, p99, ...".
std::string metric_paths_near(const nlohmann::json& metrics, const std::string& path) {
  const nlohmann::json* node = &metrics;
  std::string reached;
  std::stringstream parts(path);
  for (std::string key; std::getline(parts, key, '.');) {
    if (!node->is_object() || !node->contains(key) || !(*node)[key].is_object()) break;
    node = &(*node)[key];
    reached += (reached.empty() ? "" : ".") + key;
  }
  std::string keys;
  if (node->is_object()) {
    for (const auto& [key, value] : node->items()) keys += (keys.empty() ? "" : ", ") + key;
  }
  return (reached.empty() ? std::string("its top level holds: ") : "under '" + reached + "' it holds: ") +
         keys;
}
namespace fs = std::filesystem;

/// Exit code of a validation run with a case outside its tolerance (docs/design.md §5).
constexpr int kExitValidationFailed = 3;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

LoadOptions case_options(const ValidationCase& c) {
  LoadOptions options;
  options.overrides = c.sets;
  return options;
}

class ValidationCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("validation",
                                        "Judge rlsim against published measurements (the validation cases)");
    sub->add_option("--cases", cases_,
                    "Validation manifest (default: the bundled one, scenarios/validation/cases.yaml of the "
                    "data folder rlsim was built from or $RLSIM_DATA_DIR: runs from any folder)");
    sub->add_option("--out", out_, "Output folder (created; files in it are replaced)")
        ->capture_default_str();
    sub->add_option("--only", only_, "Run only this case (repeatable)");
    sub->add_option("--near", near_,
                    "Run only the cases nearest to this scenario: same model on a shared card first "
                    "(how far rlsim was from measurements on a setup like yours)")
        ->excludes("--only");
    sub->add_option(
           "--set", near_sets_,
           "With --near: override a field of that scenario, as for run (path.to.field=value); repeatable")
        ->needs("--near");
    sub->add_option("--unset", near_unsets_,
                    "With --near: remove a field that scenario sets, before the --set apply, as for run; "
                    "repeatable")
        ->needs("--near");
    sub->add_option("--jobs,-j", jobs_, "Cases simulated in parallel processes")
        ->capture_default_str()
        ->check(CLI::Range(1, 64));
    sub->add_flag("--quiet,-q", quiet_, "No progress on stderr (shown only on a terminal anyway)");
    sub->footer(
        "Each case names a published figure (source, setup, assumptions), the scenario mirroring it\n"
        "(or, for a kernel measurement, the op and card: priced by the datasheet roofline), the\n"
        "metrics.json path compared and a relative tolerance. Writes DIR/validation.csv (case,\n"
        "source, metric, measured, simulated, error, tolerance, pass, first_run_error), DIR/record.csv (each "
        "case's\n"
        "kind, model and cards beside its verdict: a full run's record, committed as\n"
        "scenarios/validation/record.csv, is what `rlsim run` names its nearest validated cases from)\n"
        "and DIR/<case>/{metrics.json,…} (cases with the same scenario and overrides share one run,\n"
        "filed under the first of them).\n"
        "Verdicts: pass; fail (exit 3); known gap (outside tolerance, marked in the manifest, listed\n"
        "but not failing); skipped (the case needs a scenario kind this build does not register).\n\n"
        "Examples:\n"
        "  rlsim validation --out out/validation\n"
        "  rlsim validation --only step3-afd-h800 --out out/validation-step3\n"
        "  rlsim validation --near scenarios/serve-llama3-70b.yaml --out out/validation-near\n"
        "  rlsim validation --near scenarios/heterogeneous.yaml --set cluster.pools.rollout.gpu=H800");
    return sub;
  }

  int run() override {
    if (cases_.empty()) cases_ = bundled_manifest();
    const ValidationManifest manifest = read_validation_manifest(cases_);
    std::vector<ValidationCase> cases = selected(manifest);
    if (!near_.empty()) {
      cases = nearest(cases);
      if (cases.empty()) return kExitOk;
    }
    std::vector<ValidationRow> rows;
    std::vector<long> jobs;                      // the cases whose scenarios are simulated
    std::vector<long> run_of(cases.size(), -1);  // per case, the job whose metrics it reads
    std::map<std::string, long> runs;            // cases with one scenario and overrides share a run
    // Every runnable case is loaded and checked before anything is simulated or written.
    std::map<long, nlohmann::json> priced;  // op cases: priced here, no simulation
    std::vector<SetupFingerprint> setups;   // per case, the setup it mirrors (record.csv)
    for (const auto& c : cases) {
      const auto index = static_cast<long>(rows.size());
      if (c.op) {
        rows.push_back(skipped_case(c, "not run"));
        setups.push_back(fingerprint_of_op(*c.op));
        run_of[static_cast<size_t>(index)] = index;
        priced.emplace(index, op_case_metrics(*c.op));
        continue;
      }
      if (!c.requires_kind.empty() && !ScenarioKindRegistry::instance().find(c.requires_kind)) {
        rows.push_back(skipped_case(c, "needs kind " + c.requires_kind));
        setups.push_back(SetupFingerprint{c.requires_kind, "", {}});
        continue;
      }
      rows.push_back(skipped_case(c, "not run"));
      std::string key = c.scenario;
      for (const auto& set : c.sets) key += "\n" + set;
      const auto [run, fresh] = runs.emplace(key, index);
      run_of[static_cast<size_t>(index)] = run->second;
      if (!fresh) {
        setups.push_back(setups[static_cast<size_t>(run->second)]);
        continue;
      }
      const auto loaded = scenario_kind_of(c.scenario, case_options(c))->load(c.scenario, case_options(c));
      setups.push_back(fingerprint_of_resolved(loaded->resolved_yaml()));
      jobs.push_back(index);
    }

    const fs::path out(out_);
    // Neither the manifest nor a case's scenario may lie where the suite writes.
    std::vector<std::string> inputs{cases_}, written{"validation.csv", "record.csv"};
    for (const ValidationRow& row : rows) {
      inputs.push_back(row.spec.scenario);
      written.push_back(row.spec.name);
    }
    refuse_inputs_replaced(out, inputs, written, "--out");
    prepare_output_folder(out, "--out");  // a folder it cannot write in: refused before simulating
    std::vector<nlohmann::json> metrics(rows.size());
    // The shipped profiles parsed once here, not once per case in each child (docs/performance.md).
    warm_profiles((fs::path(default_data_dir()) / "calibrate" / "profiles").string());
    // On a terminal, stderr shows each finished case with the elapsed time and an ETA.
    auto progress = std::make_optional<Progress>(static_cast<long>(jobs.size()), !quiet_);
    const ChildOutcome failure = run_in_children(
        jobs, jobs_,
        [&](long job) {
          return timed([&]() {
            const ValidationCase& c = rows[static_cast<size_t>(job)].spec;
            const auto scenario =
                scenario_kind_of(c.scenario, case_options(c))->load(c.scenario, case_options(c));
            const auto run = scenario->simulate(SimulationOptions{});
            StagedOutput output(out / c.name);
            run->write_outputs(output, OutputOptions{});
            output.commit();
            return slurp(out / c.name / "metrics.json");
          });
        },
        [&](const ChildOutcome& outcome) {
          if (!outcome.ok) return;
          const auto [seconds, text] = untimed(outcome.text);
          metrics[static_cast<size_t>(outcome.job)] = nlohmann::json::parse(text);
          progress->finished(rows[static_cast<size_t>(outcome.job)].spec.name, seconds);
        });
    progress.reset();  // ends the progress line before the table
    // A failed run leaves nothing behind: the cases this invocation wrote go, and the folder too when
    // nothing else was in it.
    auto discard_written = [&] {
      for (size_t r = 0; r < rows.size(); ++r) {
        if (!metrics[r].is_null()) fs::remove_all(out / rows[r].spec.name);
      }
      std::error_code not_empty;
      fs::remove(out, not_empty);
    };
    if (!failure.ok) {
      discard_written();
      if (failure.input_error) throw std::runtime_error(failure.text);  // a bundled case: rlsim's fault
      if (failure.output_error) throw OutputError(failure.text);
      throw std::runtime_error("case '" + rows[static_cast<size_t>(failure.job)].spec.name +
                               "' failed: " + failure.text);
    }
    try {
      for (auto& [index, json] : priced) {
        StagedOutput output(out / rows[static_cast<size_t>(index)].spec.name);
        metrics[static_cast<size_t>(index)] = json;  // written (or partly): discarded on failure
        output.write("metrics.json", json.dump(2) + "\n");
        output.commit();
      }
    } catch (const OutputError&) {
      discard_written();
      throw;
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      if (run_of[i] < 0) continue;
      const auto run = static_cast<size_t>(run_of[i]);
      const ValidationCase spec = rows[i].spec;
      const std::optional<double> simulated = metric_at(metrics[run], spec.metric);
      if (!simulated) {
        discard_written();
        throw InputError(spec.metric_where, "case '" + spec.name + "': no number at '" + spec.metric +
                                                "' in its metrics.json; " +
                                                metric_paths_near(metrics[run], spec.metric));
      }
      rows[i] = judge_case(spec, *simulated);
    }

    try {
      StagedOutput output(out);
      output.write("validation.csv", validation_csv(rows));
      output.write("record.csv", record_csv(rows, setups));
      output.commit();
    } catch (const OutputError&) {
      discard_written();
      throw;
    }
    std::cout << validation_table(cases_, rows) << "outputs: " << out_
              << "/{validation.csv,record.csv,<case>/metrics.json}\n";
    return validation_passed(rows) ? kExitOk : kExitValidationFailed;
  }

 private:
  std::vector<ValidationCase> selected(const ValidationManifest& manifest) const {
    if (only_.empty()) return manifest.cases;
    std::vector<ValidationCase> cases;
    for (const auto& name : only_) {
      const auto found = std::find_if(manifest.cases.begin(), manifest.cases.end(),
                                      [&](const ValidationCase& c) { return c.name == name; });
      if (found == manifest.cases.end()) {
        std::string names;
        for (const auto& c : manifest.cases) names += (names.empty() ? "" : ", ") + c.name;
        throw InputError({"--only", 0, 0},
                         "no case named '" + name + "' in " + manifest.file + "; cases: " + names);
      }
      cases.push_back(*found);
    }
    return cases;
  }

  /// The cases nearest to the --near scenario (case_nearness.h), after saying which and why; none
  /// when no case shares its model or a card (said too).
  std::vector<ValidationCase> nearest(const std::vector<ValidationCase>& cases) const {
    LoadOptions near_options;
    near_options.unsets = near_unsets_;
    near_options.overrides = near_sets_;
    const SetupFingerprint setup = fingerprint_of_resolved(
        scenario_kind_of(near_, near_options)->load(near_, near_options)->resolved_yaml());
    std::vector<SetupFingerprint> prints;
    std::vector<size_t> runnable;  // cases this build can run, as indices into `cases`
    for (size_t i = 0; i < cases.size(); ++i) {
      const ValidationCase& c = cases[i];
      if (c.op) {
        prints.push_back(fingerprint_of_op(*c.op));
      } else if (c.requires_kind.empty() || ScenarioKindRegistry::instance().find(c.requires_kind)) {
        const auto loaded = scenario_kind_of(c.scenario, case_options(c))->load(c.scenario, case_options(c));
        prints.push_back(fingerprint_of_resolved(loaded->resolved_yaml()));
      } else {
        continue;
      }
      runnable.push_back(i);
    }
    const NearestCases found = nearest_cases(setup, prints, models_sharing_layers(setup.model));
    std::vector<ValidationCase> chosen;
    for (size_t index : found.cases) chosen.push_back(cases[runnable[index]]);
    if (chosen.empty()) {
      std::cout << "no validation case shares model " << setup.model << " or a card of " << near_
                << ": no published measurement in " << cases_ << " stands behind rlsim's figures for it\n";
    } else {
      std::cout << "nearest validation cases to " << near_ << ": " << chosen.size() << " of " << cases.size()
                << ", sharing " << found.criterion << "\n";
    }
    return chosen;
  }

  /// The bundled manifest, relative to the working folder when it lies below it.
  static std::string bundled_manifest() {
    namespace fs = std::filesystem;
    const fs::path path = fs::path(default_data_dir()) / "scenarios/validation/cases.yaml";
    std::error_code error;
    const fs::path relative = fs::relative(path, fs::current_path(error), error);
    return !error && !relative.empty() && *relative.begin() != ".." ? relative.string() : path.string();
  }

  std::string cases_;  ///< empty: the bundled manifest
  std::string near_;
  std::vector<std::string> near_unsets_;
  std::vector<std::string> near_sets_;
  std::string out_ = "out/validation";
  std::vector<std::string> only_;
  int jobs_ = 1;
  bool quiet_ = false;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ValidationCommand, "validation", 45);
}  // namespace rlsim
