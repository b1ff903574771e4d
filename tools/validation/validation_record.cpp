// Writing, reading and summarising the validation record (see validation_record.h).
#include "tools/validation/validation_record.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/input_error.h"
#include "models/units.h"
#include "sim/scenario/catalog.h"
#include "tools/report/text_format.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/validation/validation_verdict.h"

namespace rlsim {
namespace {

const std::vector<std::string> kHeader = {"case",      "kind",      "model", "cards",     "metric",
                                          "published", "simulated", "error", "tolerance", "verdict"};

std::string joined_cards(const std::set<std::string>& cards) {
  std::string text;
  for (const auto& card : cards) text += (text.empty() ? "" : ";") + card;
  return text;
}

std::set<std::string> split_cards(const std::string& text) {
  std::set<std::string> cards;
  std::istringstream in(text);
  for (std::string card; std::getline(in, card, ';');) {
    if (!card.empty()) cards.insert(card);
  }
  return cards;
}

/// The number in `cell`, or InputError at `where`.
double number_cell(const std::string& cell, const SourceLocation& where, const std::string& column) {
  const std::optional<double> value = parse_number(cell);
  if (!value) throw InputError(where, "expected a number in column " + column + ", got '" + cell + "'");
  return *value;
}

/// A figure of metric `path` as people read it: durations of a "_s" metric in their best unit
/// ("serving.ttft_s.mean", "step_time_s"), not rates ("output_tokens_per_s").
bool seconds_metric(const std::string& path) {
  if (path.find("_per_s") != std::string::npos) return false;
  return path.find("_s.") != std::string::npos || (path.size() > 2 && path.ends_with("_s"));
}

std::string figure_text(const std::string& path, double value) {
  if (seconds_metric(path)) return readable_duration(value);
  return formatted("%.4g", value);
}

/// "1.9 to 2.7 min": a duration's two ends in the unit the larger reads best in (as
/// readable_duration picks it); other figures each as figure_text writes them.
std::string range_text(const std::string& path, double low, double high) {
  if (!seconds_metric(path)) return figure_text(path, low) + " to " + figure_text(path, high);
  struct Unit {
    double seconds;
    const char* name;
  };
  const Unit unit = high < 1e-3     ? Unit{1e-6, "us"}
                    : high < 1.0    ? Unit{1e-3, "ms"}
                    : high < 120.0  ? Unit{1.0, "s"}
                    : high < 7200.0 ? Unit{60.0, "min"}
                                    : Unit{3600.0, "h"};
  return formatted("%.3g", low / unit.seconds) + " to " + formatted("%.3g", high / unit.seconds) + " " +
         unit.name;
}

/// "; at those errors the 3.7 min here would measure 6.0 to 6.1 min": what the nearest cases' errors
/// (simulated against measured) say of this run's own value (or the plan's, the forecast's, the
/// comparison's best), the figure a measurement of this setup would give were rlsim as far off here
/// as there.
std::string implied_measurement(const std::string& path, double value, double low_error, double high_error) {
  if (1.0 + low_error <= 0.0 || 1.0 + high_error <= 0.0) return "";
  const double low = value / (1.0 + high_error), high = value / (1.0 + low_error);
  const bool one = low_error == high_error;
  return std::string("; at ") + (one ? "that error" : "those errors") + " the " + figure_text(path, value) +
         " here would measure " + (one ? figure_text(path, low) : range_text(path, low, high));
}

}  // namespace

std::string record_csv(const std::vector<ValidationRow>& rows, const std::vector<SetupFingerprint>& setups) {
  std::string out = csv_line(kHeader) + "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const ValidationRow& row = rows[i];
    const SetupFingerprint& setup = setups[i];
    const bool ran = row.simulated.has_value();
    out += csv_line({row.spec.name, setup.kind, setup.model, joined_cards(setup.cards), row.spec.metric,
                     csv_number(row.spec.published), ran ? csv_number(*row.simulated) : "",
                     ran ? csv_number(row.error) : "", csv_number(row.spec.tolerance),
                     verdict_name(row.verdict)}) +
           "\n";
  }
  return out;
}

std::vector<RecordedCase> read_record(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, 0, 0}, "cannot read the validation record");
  std::vector<RecordedCase> cases;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::vector<std::string> cells = csv_cells(line);
    const SourceLocation where{path, number, 1};
    if (number == 1) {
      if (cells != kHeader) throw InputError(where, "expected the header " + csv_line(kHeader));
      continue;
    }
    if (cells.size() != kHeader.size())
      throw InputError(where, "expected " + std::to_string(kHeader.size()) + " cells, got " +
                                  std::to_string(cells.size()));
    RecordedCase c;
    c.name = cells[0];
    c.setup = SetupFingerprint{cells[1], cells[2], split_cards(cells[3])};
    c.metric = cells[4];
    if (!cells[7].empty()) c.error = number_cell(cells[7], where, "error");
    c.tolerance = number_cell(cells[8], where, "tolerance");
    c.verdict = cells[9];
    cases.push_back(std::move(c));
  }
  if (number == 0) throw InputError({path, 1, 1}, "expected the header " + csv_line(kHeader));
  return cases;
}

std::string validated_near_text(const SetupFingerprint& setup, const std::vector<RecordedCase>& cases,
                                const std::string& record, const std::string& scenario,
                                const nlohmann::json* metrics) {
  std::vector<SetupFingerprint> setups;
  for (const auto& c : cases) setups.push_back(c.setup);
  const NearestCases nearest = nearest_cases(setup, setups, models_sharing_layers(setup.model));
  if (nearest.cases.empty()) {
    return "validated near this setup: no case in " + record + " shares model " + setup.model +
           " or a card: no published measurement stands behind these figures\n";
  }
  // Per metric, in the order the cases first name them: how many, how many within tolerance, and
  // the range of simulated against measured.
  struct MetricTally {
    std::string metric;
    int cases = 0, passed = 0;
    std::vector<double> errors;
  };
  std::vector<MetricTally> tallies;
  int passed = 0, gaps = 0, failed = 0;
  for (size_t index : nearest.cases) {
    const RecordedCase& c = cases[index];
    auto tally = std::find_if(tallies.begin(), tallies.end(),
                              [&](const MetricTally& t) { return t.metric == c.metric; });
    if (tally == tallies.end()) tally = tallies.insert(tallies.end(), MetricTally{c.metric, 0, 0, {}});
    ++tally->cases;
    if (c.verdict == verdict_name(Verdict::pass)) {
      ++passed;
      ++tally->passed;
    }
    if (c.verdict == verdict_name(Verdict::known_gap)) ++gaps;
    if (c.verdict == verdict_name(Verdict::fail)) ++failed;
    if (c.error) tally->errors.push_back(*c.error);
  }
  std::string text = "validated near this setup: " + std::to_string(nearest.cases.size()) + " case" +
                     (nearest.cases.size() == 1 ? "" : "s") + " sharing " + nearest.criterion + "\n  " +
                     std::to_string(passed) + " within tolerance, " + std::to_string(gaps) + " known gap" +
                     (gaps == 1 ? "" : "s") + (failed > 0 ? ", " + std::to_string(failed) + " failing" : "") +
                     " (" + record + "); simulated vs measured:\n";
  size_t width = 0;
  for (const auto& t : tallies) width = std::max(width, t.metric.size());
  for (const auto& t : tallies) {
    std::string range = "not run";
    if (!t.errors.empty()) {
      const auto [low, high] = std::minmax_element(t.errors.begin(), t.errors.end());
      range =
          t.errors.size() == 1 ? signed_percent(*low) : signed_percent(*low) + " to " + signed_percent(*high);
      if (const std::optional<double> own = metrics ? metric_at(*metrics, t.metric) : std::nullopt)
        range += implied_measurement(t.metric, *own, *low, *high);
    }
    text += "    " + padded(t.metric, width + 2) + std::to_string(t.passed) + " of " +
            std::to_string(t.cases) + " within tolerance, " + range + "\n";
  }
  return text + "  run them: rlsim validation --near " + scenario + "\n";
}

std::string validated_near_from_record(const std::string& resolved_yaml, const std::string& scenario,
                                       const nlohmann::json* metrics) {
  const std::filesystem::path path =
      std::filesystem::path(default_data_dir()) / "scenarios" / "validation" / "record.csv";
  // Relative to the working directory when the record lies under it, else absolute: a path that
  // climbs out ("../../work/…") reads as if it were the user's.
  const std::filesystem::path relative = std::filesystem::proximate(path);
  const bool under = !relative.empty() && *relative.begin() != "..";
  try {
    return validated_near_text(
        fingerprint_of_resolved(resolved_yaml), read_record(path.string()),
        (under ? relative : std::filesystem::absolute(path).lexically_normal()).string(), scenario, metrics);
  } catch (const InputError& e) {
    return "validated near this setup: not known (" + std::string(e.what()) + ")\n";
  }
}

}  // namespace rlsim
