// Turning a scenario file (plus `--set` overrides and catalogs) into a checked Scenario, and the
// fully resolved YAML (every default filled in, units canonical) that each run writes beside its
// outputs. All input problems come back as InputError with FILE:LINE:COL.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/catalog.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

struct LoadOptions {
  std::vector<std::string> overrides;  ///< "a.b=value" from --set
  std::optional<uint64_t> seed;        ///< --seed, wins over the file
  std::string data_dir;                ///< where scenarios/catalog lives; empty = default_data_dir()
  /// Set: run under this policy — it replaces policy.name (as `--set policy.name=` would) and the
  /// policy block's parameters it does not take are dropped, so one file runs under every policy
  /// (`rlsim compare`) even when it sets another policy's parameters.
  std::string policy{};
  /// Set (by `rlsim explain`): the loader notes every field it reads here (field_log.h).
  FieldLog* fields = nullptr;
  /// False (by `rlsim sweep`, to read the grid a scenario declares): the memory-fit checks are
  /// skipped, since the grid's values replace the ones checked; every point is loaded, and so
  /// checked, on its own before anything runs.
  bool check_memory = true;
  std::vector<std::string> params{};  ///< "a.b=value" from a sweep point's --param, after the --set
  std::vector<std::string> unsets{};  ///< "a.b" from --unset: removed before the --set apply
};

struct LoadedScenario {
  Scenario scenario;
  Catalog catalog;            ///< built-in rows plus the scenario's own catalog files
  std::string resolved_yaml;  ///< text of resolved.yaml
};

/// Applies `options`' --unset removals, then its --set overrides, then its --param assignments, to
/// `source`.
void apply_load_overrides(YamlSource& source, const LoadOptions& options);

/// What the scenario at `path` describes after `--set` overrides: its top-level `kind:`, one of
/// `kinds` (the CLI's registered kinds, e.g. "rl" for an RL post-training run or "afd" for one
/// attention-FFN-disaggregated decode instance), or kinds.front() when it has none. InputError at
/// `kind` listing `kinds` when it names another, else as load_scenario.
std::string scenario_kind(const std::string& path, const LoadOptions& options,
                          const std::vector<std::string>& kinds);

/// Loads an RL scenario (`kind: rl` or no kind); an AFD scenario is an InputError at its `kind`.
LoadedScenario load_scenario(const std::string& path, const LoadOptions& options = {});

/// Shared by the scenario kinds: the built-in catalog plus the files the scenario's `catalog:`
/// lists (relative to `path`).
Catalog load_scenario_catalog(YamlReader& root, const std::string& path, const LoadOptions& options);
/// An inference deployment (`rollout:` of an RL scenario, `serve:` of a serving one): its pool, TP,
/// batch, precisions, router, scheduler, engine preset (from `catalog`), KV handling, and AFD
/// instances when `afd:` is set; its max_model_len is `model`'s context window unless written.
RolloutSpec read_rollout(YamlReader& r, const ClusterSpec& cluster, const Catalog& catalog,
                         const ModelArch& model);
/// The top-level `profile:` and `cost_model:` of an RL or serving scenario at `path` into `s`; the
/// profile's engine tables are checked against `catalog`.
void read_cost_model(YamlReader& root, const std::string& path, const LoadOptions& options,
                     const Catalog& catalog, Scenario& s);
/// InputError unless the profile at `path` can price this scenario: at `key` unless some pool of
/// `cluster` has the card it was measured on (a profile of another card would silently price
/// nothing), and at the table unless each engine all-reduce table names a preset of `catalog`.
void check_profile_fits(YamlReader& r, const std::string& key, const std::string& path,
                        const ClusterSpec& cluster, const Catalog& catalog);
/// InputError at `key` (with a did-you-mean) unless `name` is a pool of `cluster`.
void check_pool_reference(YamlReader& r, const std::string& key, const std::string& name,
                          const ClusterSpec& cluster);

}  // namespace rlsim
