// The scenario field reference behind `rlsim explain` and docs/scenario-reference.md: every field
// the loaders read, gathered by loading the bundled scenarios of every kind with a FieldLog
// (sim/scenario/field_log.h), so each field's meaning, unit, default and range come from the
// declaration the loader itself reads with, and a plug-in's parameters from its registry entry.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/field_log.h"

namespace rlsim {

struct FieldReference {
  std::vector<FieldDoc> fields;        ///< grouped by top-level section (FieldLog::fields)
  std::vector<std::string> conflicts;  ///< defaults that disagreed between scenarios (should be none)
  std::vector<std::string> sources;    ///< the scenario files loaded, relative to the data folder
};

/// Loads every `scenarios/*.yaml` under `data_dir` (default_data_dir() when empty) with its kind's
/// loader and a FieldLog.
FieldReference gather_field_reference(const std::string& data_dir = "");

/// The entries of `reference` that `query` names: a field ("training.sequence_tokens", list
/// indices as numbers, [] or left out), or a section ("training") with every field under it.
/// InputError (at the `FIELD` argument) naming the nearest fields when none matches.
std::vector<FieldDoc> explain_query(const FieldReference& reference, const std::string& query);

/// A plot axis title for swept field `path` ("cluster.pools.0.nodes (nodes)"): the path and the
/// field's unit from the reference, "count" for an integer without one, nothing for names and
/// choices; the path alone when the reference does not know it.
std::string field_axis_label(const std::string& path);

/// One field, several lines: meaning, type, unit, default, range, read by.
std::string field_text(const FieldDoc& field);
/// Every field, two lines each (`rlsim explain` without a field).
std::string reference_text(const std::vector<FieldDoc>& fields);
/// docs/scenario-reference.md: one table per top-level section.
std::string reference_markdown(const FieldReference& reference);

}  // namespace rlsim
