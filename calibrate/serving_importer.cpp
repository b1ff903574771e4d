// Reading measured serving iterations, row by row, with located errors.
#include "calibrate/serving_importer.h"

#include "calibrate/csv_table.h"
#include "models/units.h"

namespace rlsim {
namespace {

/// One engine iteration measured at more than an hour is not a timing of an engine.
constexpr double kLongestIterationMs = 3.6e6;

}  // namespace

std::vector<ServingMeasurement> import_serving_csv(const std::string& path) {
  const CsvTable table = CsvTable::read(path);
  const size_t model = table.column("model"), hardware = table.column("hardware"), tp = table.column("tp"),
               batch = table.column("batch"), prompt = table.column("prompt_tokens"),
               context = table.column("context_tokens"), phase = table.column("phase"),
               measured = table.column("measured_ms");
  std::vector<ServingMeasurement> out;
  for (const CsvRow& row : table.rows()) {
    ServingMeasurement m;
    m.where = table.where(&row, 0);
    m.model = table.text(row, model);
    m.model_where = table.where(&row, model);
    m.hardware = table.text(row, hardware);
    m.hardware_where = table.where(&row, hardware);
    m.tp = static_cast<int>(table.integer(row, tp, 1, 1024));
    m.batch = table.integer(row, batch, 1, 1 << 20);
    m.context_tokens = table.integer(row, context, 0, 1LL << 30);
    const std::string& kind = table.text(row, phase);
    if (kind == "prefill") {
      m.phase = ServingPhase::prefill;
    } else if (kind == "decode") {
      m.phase = ServingPhase::decode;
    } else if (kind == "generate") {
      m.phase = ServingPhase::generate;
    } else {
      throw InputError(table.where(&row, phase),
                       "expected phase 'prefill', 'decode' or 'generate', found '" + kind + "'");
    }
    m.prompt_tokens = table.integer(row, prompt, m.phase == ServingPhase::decode ? 0 : 1, 1LL << 24);
    if (m.phase == ServingPhase::generate &&
        (m.generated_tokens() < 1 || m.generated_tokens() > kMostGeneratedTokens)) {
      throw InputError(
          table.where(&row, context),
          "expected a generate row's context_tokens (prompt + output) to exceed its prompt_tokens " +
              std::to_string(m.prompt_tokens) + " by 1 to " + std::to_string(kMostGeneratedTokens) +
              " output tokens, found " + std::to_string(m.context_tokens));
    }
    const double ms = table.number(row, measured);
    if (!(ms > 0.0) || ms > kLongestIterationMs)
      throw InputError(table.where(&row, measured),
                       "expected a positive measured_ms of at most " + format_number(kLongestIterationMs) +
                           " (an hour: one engine iteration takes far less), found " + format_number(ms));
    m.measured_s = ms * 1e-3;
    out.push_back(std::move(m));
  }
  if (out.empty()) {
    throw InputError(table.where(nullptr, model),
                     "expected at least one measured iteration after the header, found none");
  }
  return out;
}

}  // namespace rlsim
