// Refusing an iteration no engine could run: weights, then the batch's KV, against the cards.
#include "tools/cli/iteration_fit.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "models/input_error.h"
#include "models/memory/inference_memory.h"
#include "sim/scenario/memory_check.h"
#include "sim/scenario/scenario.h"
#include "tools/cli/catalog_args.h"

namespace rlsim {
namespace {

std::string parallelism(const IterationFootprint& f) {
  return "tp " + std::to_string(f.tp) + (f.pp > 1 ? " × pp " + std::to_string(f.pp) : "");
}

std::string fraction_text(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", fraction);
  return text;
}

/// The smallest change of flags that lets the weights fit.
std::string weights_fix(const ModelArch& model, const HardwareSpec& card, const IterationFootprint& f,
                        double reserve) {
  if (f.pp == 1) {
    // Engines keep a TP group inside one server: 8 GPUs on the HGX/DGX-class nodes of the catalog.
    constexpr int kNodeGpus = 8;
    if (const int tp = smallest_fitting_tp(model, card, kNodeGpus, f.weights, f.kv, reserve); tp > 0)
      return "--tp " + std::to_string(tp);
  }
  if (bytes_per_element(f.weights) > bytes_per_element(Precision::fp8) &&
      tp_instance_memory(model, card, f.tp, f.pp, Precision::fp8, f.kv, reserve).fits())
    return "--weights fp8";
  if (const int pp = smallest_fitting_pp(model, card, f.tp, f.weights, f.kv, reserve); pp > f.pp)
    return "--pp " + std::to_string(pp);
  return "a card with more memory";
}

}  // namespace

void check_iteration_fits(const ModelArch& model, const HardwareSpec& card, const IterationFootprint& f) {
  const double reserve = RolloutSpec{}.activation_memory_fraction;
  const InferenceMemory m = tp_instance_memory(model, card, f.tp, f.pp, f.weights, f.kv, reserve);
  const std::string where = model.name + " at " + parallelism(f) + " on " + card.name;
  if (!m.fits()) {
    throw InputError(
        flag_location(f.pp > 1 ? "--pp" : "--tp"),
        model.name + " does not fit on " + card.name + " at " + parallelism(f) + ": each GPU needs " +
            gibibytes(m.weight_bytes) + " of " + std::string(to_string(f.weights)) + " weights + " +
            gibibytes(m.reserve_bytes) + " reserve (activation_memory_fraction " + fraction_text(reserve) +
            ", a scenario's default) = " + gibibytes(m.weights_and_reserve_bytes()) + " against " +
            gibibytes(m.capacity_bytes) +
            ", leaving no room for the KV cache; smallest fix: " + weights_fix(model, card, f, reserve));
  }
  const double needed = static_cast<double>(f.batch) * static_cast<double>(f.tokens_per_sequence);
  if (needed <= m.kv_capacity_tokens) return;
  const auto most = static_cast<int64_t>(std::floor(m.sequences(static_cast<double>(f.tokens_per_sequence))));
  std::string fix = most > 0 ? "--batch " + std::to_string(most) + " or fewer" : "shorter sequences";
  fix += ", a larger --tp or --pp";
  if (bytes_per_element(f.kv) > bytes_per_element(Precision::fp8)) fix += ", --kv-cache fp8";
  throw InputError(flag_location("--batch"),
                   "a batch of " + std::to_string(f.batch) + " sequences of " +
                       std::to_string(f.tokens_per_sequence) + " tokens (" + f.tokens_made_of + ") needs " +
                       std::to_string(static_cast<int64_t>(needed)) + " tokens of KV cache, more than " +
                       where + " holds (" + std::to_string(static_cast<int64_t>(m.kv_capacity_tokens)) +
                       " tokens): no engine could run it; smallest fix: " + fix);
}

}  // namespace rlsim
