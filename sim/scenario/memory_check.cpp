// Memory feasibility of a scenario and the figures `validate` prints (see memory_check.h).
#include "sim/scenario/memory_check.h"

#include <cmath>
#include <cstdio>

#include "models/afd/afd_stages.h"
#include "models/arch_params.h"
#include "sim/scenario/context_window_check.h"

namespace rlsim {

std::string gibibytes(double bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / 1073741824.0);
  return text;
}

namespace {

std::string number(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

const HardwareSpec& rollout_card(const Scenario& s) { return s.cluster.pool(s.rollout.pool)->card; }

/// The smallest fix for FFN weights that need `need` GPUs of `field` where at most `most` can be
/// given: that many GPUs when they can be had, else what is left (fp8 weights, another card).
std::string ffn_weights_fix(const std::string& field, int need, int most, Precision weights) {
  if (need <= most) return field + " >= " + std::to_string(need);
  return std::string(wider_than_fp8(weights) ? "weights: fp8 or " : "") + "a card with more memory (" +
         field + " would need " + std::to_string(need) + ", more than the " + std::to_string(most) +
         " the pool has)";
}
const HardwareSpec& training_card(const Scenario& s) { return s.cluster.pool(s.training.pool)->card; }

std::string training_terms(const TrainingMemory& m) {
  return "weights " + gibibytes(m.weight_bytes) + " + gradients " + gibibytes(m.gradient_bytes) +
         " + optimizer " + gibibytes(m.optimizer_bytes) + " + reference " + gibibytes(m.reference_bytes) +
         " + activations " + gibibytes(m.activation_bytes);
}

}  // namespace

int training_dp_in_use(const Scenario& s) {
  if (s.policy.name != "colocated" || s.rollout.pool == s.training.pool) return s.training.dp;
  const int gpus = s.cluster.pool(s.rollout.pool)->gpus() + s.cluster.pool(s.training.pool)->gpus();
  return gpus / (s.training.tp * s.training.pp);
}

TrainingLayout training_layout(const Scenario& s) {
  const TrainingSpec& t = s.training;
  TrainingLayout l;
  l.dp = training_dp_in_use(s);
  l.tp = t.tp;
  l.pp = t.pp;
  l.sharding = t.sharding;
  l.recompute = t.recompute;
  l.sequence_tokens = t.sequence_tokens;
  l.micro_batch_sequences = t.micro_batch_sequences;
  l.sequence_parallel = t.sequence_parallel;
  l.attention = t.attention_backend;
  l.dropout = t.dropout;
  l.gradient_bytes_per_param = bytes_per_element(t.gradients);
  l.offload_optimizer = t.offload_optimizer;
  l.reference_models = t.reference_model ? 1 : 0;
  l.trained_models = t.algorithm == RlAlgorithm::ppo ? 2 : 1;  // PPO trains a critic too
  return l;
}

InferenceMemory rollout_memory(const Scenario& s) {
  const RolloutSpec& r = s.rollout;
  if (r.afd) {
    return afd_attention_memory(s.model, rollout_card(s), r.afd->attention_gpus, r.weights, r.kv_cache,
                                r.activation_memory_fraction);
  }
  return tp_instance_memory(s.model, rollout_card(s), r.tp, r.pp, r.weights, r.kv_cache,
                            r.activation_memory_fraction);
}

double typical_context_tokens(const WorkloadSpec& w) {
  if (w.max_context_tokens > 0) return w.context_limit_tokens();
  const double turns = std::max(1.0, w.turns.nominal_mean());
  const double typical = w.prompt_tokens.nominal_mean() + turns * w.output_tokens.nominal_mean() +
                         (turns - 1.0) * w.observation_tokens.nominal_mean();
  return w.max_model_len > 0.0 ? std::min(typical, w.max_model_len) : typical;
}

void check_sequence_fits(const Scenario& s, double tokens, const std::string& what,
                         const SourceLocation& where) {
  if (s.rollout.afd) return;  // AFD decode batches are checked per attention GPU (afd.batch)
  const InferenceMemory m = rollout_memory(s);
  if (!m.fits() || tokens <= m.kv_capacity_tokens) return;
  throw MemoryFitError(where,
                       "one sequence of " + what + " needs " + number("%.0f", tokens) +
                           " tokens of KV cache, more than an instance's whole cache (" +
                           number("%.0f", m.kv_capacity_tokens) + " tokens of " + s.model.name + " at " +
                           s.rollout.parallelism() + " on " + rollout_card(s).name +
                           "): no engine could run it; smallest fix: shorter sequences, a larger tp or pp, " +
                           (wider_than_fp8(s.rollout.kv_cache) ? "kv_cache: fp8, " : "") +
                           "or a card with more memory");
}

void check_rollout_memory(const Scenario& s, const YamlReader& rollout) {
  const RolloutSpec& r = s.rollout;
  const HardwareSpec& card = rollout_card(s);
  const InferenceMemory m = rollout_memory(s);
  const std::string reserve = gibibytes(m.reserve_bytes) + " reserve (" + rollout.path() +
                              ".activation_memory_fraction " + number("%g", r.activation_memory_fraction) +
                              ")";
  if (r.afd) {
    if (!m.fits()) {
      throw MemoryFitError(rollout.where("afd"),
                           s.model.name + " AFD attention GPUs do not fit on " + card.name + ": each needs " +
                               gibibytes(m.weight_bytes) + " of " + std::string(to_string(r.weights)) +
                               " attention weights + " + reserve + " against " + gibibytes(m.capacity_bytes) +
                               "; smallest fix: " + (wider_than_fp8(r.weights) ? "weights: fp8 or " : "") +
                               "a card with more memory");
    }
    const HardwareSpec& ffn = s.cluster.pool(r.afd->ffn_pool)->card;
    const double ffn_bytes = afd_ffn_weight_bytes(s.model, r.afd->ffn_gpus, r.afd->ffn_tp, r.weights);
    const double ffn_room = ffn.mem_capacity_bytes * (1.0 - r.activation_memory_fraction);
    if (ffn_bytes > ffn_room) {
      const int need = static_cast<int>(std::ceil(r.afd->ffn_gpus * ffn_bytes / ffn_room));
      throw MemoryFitError(
          rollout.where("afd"),
          s.model.name + " FFN weights do not fit on " + ffn.name + ": each of the " +
              std::to_string(r.afd->ffn_gpus) + " FFN GPUs needs " + gibibytes(ffn_bytes) + " against " +
              gibibytes(ffn_room) + " after the reserve; smallest fix: " +
              ffn_weights_fix("afd.ffn_gpus", need, s.cluster.pool(r.afd->ffn_pool)->gpus(), r.weights));
    }
    return;
  }
  if (m.fits()) return;
  const int gpus_per_node = s.cluster.pool(r.pool)->gpus_per_node;
  const int tp = r.pp == 1 ? smallest_fitting_tp(s.model, card, gpus_per_node, r.weights, r.kv_cache,
                                                 r.activation_memory_fraction)
                           : 0;
  // The fewest stages that fit and into whose instances the pool splits.
  int pp = smallest_fitting_pp(s.model, card, r.tp, r.weights, r.kv_cache, r.activation_memory_fraction);
  const int pool_gpus = s.cluster.pool(r.pool)->gpus();
  while (pp > 0 && pp <= s.model.layers && pool_gpus % (r.tp * pp) != 0) ++pp;
  if (pp > s.model.layers) pp = 0;
  std::string fix;
  if (tp > 0) {
    fix = "tp >= " + std::to_string(tp);
  } else if (wider_than_fp8(r.weights) && tp_instance_memory(s.model, card, r.tp, r.pp, Precision::fp8,
                                                             r.kv_cache, r.activation_memory_fraction)
                                              .fits()) {
    fix = "weights: fp8";
  } else if (pp > r.pp) {
    fix = "pp >= " + std::to_string(pp) + " (pipeline stages of tp " + std::to_string(r.tp) +
          ", which may span nodes; the fewest that fit and split the pool's " + std::to_string(pool_gpus) +
          " GPUs into instances)";
  } else {
    fix =
        "a card with more memory (" +
        (r.pp == 1 ? "no tp up to the node's " + std::to_string(gpus_per_node) + " GPUs, " : std::string()) +
        "no fp8 weights and no pp that splits the pool fits)";
  }
  throw MemoryFitError(
      rollout.where(r.pp > 1 ? "pp" : "tp"),
      s.model.name + " does not fit on " + card.name + " at " + r.parallelism() + ": each GPU needs " +
          gibibytes(m.weight_bytes) + " of " + std::string(to_string(r.weights)) + " weights + " + reserve +
          " = " + gibibytes(m.weights_and_reserve_bytes()) + " against " + gibibytes(m.capacity_bytes) +
          ", leaving no room for the KV cache; smallest fix: " + fix);
}

void check_training_memory(const Scenario& s, const YamlReader& training) {
  const HardwareSpec& card = training_card(s);
  const TrainingLayout layout = training_layout(s);
  const TrainingMemory m = training_memory(s.model, card, layout);
  if (m.fits()) return;
  const std::vector<std::string> fixes =
      training_memory_fixes(s.model, card, layout, s.cluster.pool(s.training.pool)->gpus_per_node);
  std::string fix;
  for (const auto& f : fixes) fix += (fix.empty() ? "" : " or ") + f;
  if (fix.empty()) fix = "more GPUs (dp × tp × pp) or a card with more memory";
  throw MemoryFitError(
      training.where("sharding"),
      "training " + s.model.name + " does not fit on " + card.name + " at dp " + std::to_string(layout.dp) +
          " × tp " + std::to_string(layout.tp) + " × pp " + std::to_string(layout.pp) + ", sharding " +
          std::string(enum_name(layout.sharding)) + ", recompute " +
          std::string(enum_name(layout.recompute)) + ": each GPU needs " + gibibytes(m.total_bytes()) + " (" +
          training_terms(m) + ") against " + gibibytes(m.capacity_bytes) + "; smallest fix: " + fix);
}

int64_t afd_most_sequences_per_gpu(const AfdDeploymentSpec& d) {
  const int64_t m = d.micro_batches, n = d.attention_gpus;
  int64_t most = 0;
  for (int64_t j = 0; j < m; ++j) {
    const int64_t micro_batch = d.batch / m + (j < d.batch % m ? 1 : 0);
    most += (micro_batch + n - 1) / n;
  }
  return most;
}

InferenceMemory afd_deployment_memory(const AfdScenario& s) {
  const AfdDeploymentSpec& d = s.afd;
  return afd_attention_memory(s.model, s.cluster.pool(d.attention_pool)->card, d.attention_gpus,
                              d.precisions.weights, d.precisions.kv, d.activation_memory_fraction);
}

void check_afd_memory(const AfdScenario& s, const YamlReader& afd) {
  const AfdDeploymentSpec& d = s.afd;
  const InferenceMemory m = afd_deployment_memory(s);
  const double held = static_cast<double>(afd_most_sequences_per_gpu(d));
  const double fraction = m.used_fraction(held * static_cast<double>(d.context));
  if (fraction > 1.0) {
    const HardwareSpec& card = s.cluster.pool(d.attention_pool)->card;
    // The largest batch whose busiest attention GPU fits (memory grows with the batch).
    auto fits = [&](int64_t batch) {
      AfdDeploymentSpec smaller = d;
      smaller.batch = batch;
      return m.used_fraction(static_cast<double>(afd_most_sequences_per_gpu(smaller) * d.context)) <= 1.0;
    };
    int64_t largest = 0;
    for (int64_t low = d.micro_batches, high = d.batch - 1; low <= high;) {
      const int64_t mid = low + (high - low) / 2;
      if (fits(mid)) {
        largest = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    const std::string fix = largest > 0 ? "batch <= " + std::to_string(largest) + " (or more attention GPUs)"
                            : wider_than_fp8(d.precisions.kv) ? "more attention GPUs or kv_cache: fp8"
                                                              : "more attention GPUs";
    throw MemoryFitError(afd.where("batch"),
                         "the KV cache does not fit on " + card.name + ": the busiest attention GPU holds " +
                             number("%.0f", held) + " sequences of " + std::to_string(d.context) +
                             " tokens and needs " + gibibytes(fraction * m.capacity_bytes) + " (" +
                             number("%.0f%%", 100.0 * fraction) + " of " + gibibytes(m.capacity_bytes) +
                             ": weights " + gibibytes(m.weight_bytes) + " + reserve " +
                             gibibytes(m.reserve_bytes) + " + KV " +
                             gibibytes(m.kv_bytes_per_token * held * static_cast<double>(d.context)) +
                             "); smallest fix: " + fix);
  }
  const HardwareSpec& ffn = s.cluster.pool(d.ffn_pool)->card;
  const double ffn_fraction = afd_ffn_memory_fraction(s.model, ffn, d.ffn_gpus, d.ffn_tp,
                                                      d.precisions.weights, d.activation_memory_fraction);
  if (ffn_fraction > 1.0) {
    const int need = static_cast<int>(std::ceil(d.ffn_gpus * ffn_fraction));
    const int most =
        s.cluster.pool(d.ffn_pool)->gpus() - (d.ffn_pool == d.attention_pool ? d.attention_gpus : 0);
    throw MemoryFitError(afd.where("ffn"), s.model.name + " expert weights do not fit on " + ffn.name +
                                               ": each of the " + std::to_string(d.ffn_gpus) +
                                               " FFN GPUs needs " + number("%.0f%%", 100.0 * ffn_fraction) +
                                               " of its memory (reserve included); smallest fix: " +
                                               ffn_weights_fix("ffn gpus", need, most, d.precisions.weights));
  }
}

std::string inference_memory_summary(const Scenario& s, double typical_tokens, const std::string& role) {
  std::string out;
  const RolloutSpec& r = s.rollout;
  const PoolSpec& pool = *s.cluster.pool(r.pool);
  const InferenceMemory m = rollout_memory(s);
  const int gpus_per_instance = r.afd ? r.afd->attention_gpus : r.gpus_per_instance();
  const int instances = pool.gpus() / gpus_per_instance;
  out += "  " + role + " pool " + pool.name + ": " + std::to_string(instances) + " instance" +
         (instances == 1 ? "" : "s") + " of " + std::to_string(gpus_per_instance) + " " + pool.card.name +
         (r.afd ? " attention GPUs" : " (" + r.parallelism() + ")") + "\n";
  out += "    per GPU: weights " + gibibytes(m.weight_bytes) + " + reserve " + gibibytes(m.reserve_bytes) +
         " + KV " + gibibytes(m.kv_free_bytes) + " = " + gibibytes(m.capacity_bytes) + "\n";
  out += "    KV capacity per instance: " + number("%.0f", m.kv_capacity_tokens) + " tokens, " +
         number("%.0f", m.sequences(typical_tokens)) + " sequences of " + number("%.0f", typical_tokens) +
         " tokens (max_batch " + std::to_string(r.max_batch) + ")\n";
  out += "    max_model_len: " + std::to_string(r.max_model_len) + " tokens per sequence (" +
         context_window_phrase(s.model) + ")\n";
  return out;
}

std::string memory_summary(const Scenario& s) {
  std::string out = inference_memory_summary(s, typical_context_tokens(s.workload), "rollout");
  const PoolSpec& train = *s.cluster.pool(s.training.pool);
  const TrainingLayout l = training_layout(s);
  const TrainingMemory t = training_memory(s.model, train.card, l);
  out += "  training pool " + train.name + (l.dp != s.training.dp ? " (colocated: both pools)" : "") +
         ": dp " + std::to_string(l.dp) + " × tp " + std::to_string(l.tp) + " × pp " + std::to_string(l.pp) +
         " on " + train.card.name + ", sharding " + std::string(enum_name(l.sharding)) + ", recompute " +
         std::string(enum_name(l.recompute)) + "\n";
  out += "    per GPU: " + training_terms(t) + " = " + gibibytes(t.total_bytes()) + " of " +
         gibibytes(t.capacity_bytes) + " (headroom " + gibibytes(t.headroom_bytes()) + ")\n";
  return out;
}

}  // namespace rlsim
