// Gathering and printing the scenario field reference (field_reference.h).
#include "tools/cli/field_reference.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "sim/scenario/catalog.h"
#include "tools/cli/catalog_args.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

std::string owners_text(const FieldDoc& field) {
  std::string out;
  for (const auto& owner : field.owners) out += (out.empty() ? "" : ", ") + owner;
  return out;
}

std::string without_brackets(std::string path) {
  for (size_t at = path.find("[]"); at != std::string::npos; at = path.find("[]")) path.erase(at, 2);
  return path;
}

std::string section_of(const FieldDoc& field) { return field.path.substr(0, field.path.find('.')); }

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out.empty() ? "-" : out;
}

}  // namespace

FieldReference gather_field_reference(const std::string& data_dir) {
  const std::filesystem::path root = data_dir.empty() ? default_data_dir() : data_dir;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(root / "scenarios")) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  FieldLog log;
  FieldReference reference;
  LoadOptions options;
  options.data_dir = root.string();
  options.fields = &log;
  for (const auto& file : files) {
    const auto kind = scenario_kind_of(file.string(), options);
    log.begin("kind " + kind->name());
    kind->load(file.string(), options);
    reference.sources.push_back(std::filesystem::relative(file, root).string());
  }
  reference.fields = log.fields();
  reference.conflicts = log.conflicts();
  return reference;
}

std::vector<FieldDoc> explain_query(const FieldReference& reference, const std::string& query) {
  const std::string wanted = without_brackets(field_path(query));
  std::vector<FieldDoc> exact, under;
  for (const auto& field : reference.fields) {
    const std::string path = without_brackets(field.path);
    if (path == wanted) exact.push_back(field);
    if (path.size() > wanted.size() && path.compare(0, wanted.size() + 1, wanted + ".") == 0)
      under.push_back(field);
  }
  if (!exact.empty()) {
    exact.insert(exact.end(), under.begin(), under.end());
    return exact;
  }
  if (!under.empty()) return under;
  // Suggest fields whose last part is the query (`sequence_tokens`), else the nearest paths.
  std::vector<std::string> paths, same_leaf;
  for (const auto& field : reference.fields) {
    if (std::find(paths.begin(), paths.end(), field.path) != paths.end()) continue;
    paths.push_back(field.path);
    const std::string path = without_brackets(field.path);
    if (path.size() > wanted.size() &&
        path.compare(path.size() - wanted.size() - 1, std::string::npos, "." + wanted) == 0)
      same_leaf.push_back(field.path);
  }
  std::string message = "unknown scenario field '" + query + "'";
  if (!same_leaf.empty()) {
    message += "; did you mean " + join(same_leaf, " or ") + "?";
  } else if (auto near = nearest_key(field_path(query), paths)) {
    message += "; did you mean '" + *near + "'?";
  }
  throw InputError(flag_location("FIELD"), message + " (`rlsim explain` lists every field)");
}

std::string field_axis_label(const std::string& path) {
  FieldReference reference;
  try {
    reference = gather_field_reference();
  } catch (const std::exception&) {
    return path;  // no bundled scenarios to read the reference from
  }
  // A list item may be named ("cluster.pools.rollout.nodes"): try each part as an index too.
  std::vector<std::string> candidates{path};
  for (size_t from = 0, dot; (dot = path.find('.', from)) != std::string::npos; from = dot + 1) {
    const size_t end = path.find('.', dot + 1);
    if (end != std::string::npos) candidates.push_back(path.substr(0, dot + 1) + "0" + path.substr(end));
  }
  for (const std::string& candidate : candidates) {
    const std::string wanted = without_brackets(field_path(candidate));
    for (const auto& field : reference.fields) {
      if (without_brackets(field.path) != wanted) continue;
      if (!field.unit.empty()) return path + " (" + field.unit + ")";
      return field.type == "integer" ? path + " (count)" : path;
    }
  }
  return path;
}

std::string field_text(const FieldDoc& field) {
  std::ostringstream out;
  out << field.path << "\n  " << field.help << "\n";
  out << "  type      " << field.type << "\n";
  if (!field.unit.empty()) out << "  unit      " << field.unit << "\n";
  out << "  default   " << field.default_text << "\n";
  if (!field.range.empty()) out << "  range     " << field.range << "\n";
  out << "  read by   " << owners_text(field) << "\n";
  return out.str();
}

std::string reference_text(const std::vector<FieldDoc>& fields) {
  std::ostringstream out;
  for (const auto& field : fields) {
    std::string facts = field.type;
    if (!field.unit.empty()) facts += ", " + field.unit;
    facts += ", default " + field.default_text;
    if (!field.range.empty()) facts += ", " + field.range;
    out << padded(field.path, 44) << facts << "\n    " << field.help << "  [" << owners_text(field) << "]\n";
  }
  return out.str();
}

std::string reference_markdown(const FieldReference& reference) {
  std::ostringstream out;
  out << "# Scenario field reference\n\n"
      << "Generated by `rlsim explain --markdown` from the declarations the scenario loaders read with\n"
      << "(sim/scenario/) and the plug-ins' registry schemas; a test regenerates it and fails when it\n"
      << "differs. `rlsim explain FIELD` prints one field. Gathered from: " << join(reference.sources, ", ")
      << ".\n";
  // Top-level single fields first, in one table; then one table per section.
  const auto is_section = [&](const FieldDoc& field) {
    const std::string name = section_of(field);
    return std::any_of(reference.fields.begin(), reference.fields.end(),
                       [&](const FieldDoc& other) { return other.path.rfind(name + ".", 0) == 0; });
  };
  const auto row = [&](const FieldDoc& field) {
    out << "| `" << field.path << "` | " << markdown_cell(field.help) << " | " << markdown_cell(field.type)
        << " | " << markdown_cell(field.unit) << " | " << markdown_cell(field.default_text) << " | "
        << markdown_cell(field.range) << " | " << markdown_cell(owners_text(field)) << " |\n";
  };
  const char* header =
      "| field | meaning | type | unit | default | range | read by |\n| --- | --- | --- | --- | --- | --- | "
      "--- |\n";
  out << "\n## Top level\n\n" << header;
  for (const auto& field : reference.fields) {
    if (!is_section(field)) row(field);
  }
  std::string section;
  for (const auto& field : reference.fields) {
    if (!is_section(field)) continue;
    if (section_of(field) != section) {
      section = section_of(field);
      out << "\n## " << section << "\n\n" << header;
    }
    row(field);
  }
  return out.str();
}

}  // namespace rlsim
