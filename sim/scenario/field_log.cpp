// Gathering the field reference from the loaders' own declarations (field_log.h).
#include "sim/scenario/field_log.h"

#include <algorithm>
#include <cctype>

namespace rlsim {

FieldDoc field_doc(const ParamSpec& spec) {
  FieldDoc doc;
  doc.path = spec.key;
  doc.type = spec.type_text();
  doc.unit = spec.unit;
  doc.default_text = spec.default_text();
  doc.range = spec.range_text();
  doc.help = spec.help;
  return doc;
}

std::string field_path(const std::string& raw) {
  std::string out;
  size_t start = 0;
  while (start <= raw.size()) {
    const size_t dot = raw.find('.', start);
    const std::string part = raw.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const bool index = !part.empty() && std::all_of(part.begin(), part.end(),
                                                    [](unsigned char c) { return std::isdigit(c) != 0; });
    if (index) {
      out += "[]";
    } else {
      out += (out.empty() ? "" : ".") + part;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

void FieldLog::begin(std::string owner) {
  owner_ = std::move(owner);
  noted_this_load_.clear();
}

bool FieldLog::inside_distribution(const std::string& path) const {
  return std::any_of(fields_.begin(), fields_.end(), [&](const FieldDoc& field) {
    return field.type == "distribution" && path.size() > field.path.size() &&
           path.compare(0, field.path.size() + 1, field.path + ".") == 0;
  });
}

void FieldLog::note(const std::string& raw_path, FieldDoc doc, const std::string& owner) {
  doc.path = field_path(raw_path);
  const std::string& by = owner.empty() ? owner_ : owner;
  // A plug-in's parameter, noted for its registry entries, is not the kind's own field too.
  const bool noted_by_anyone = !noted_this_load_.insert(doc.path).second;
  if ((owner.empty() && noted_by_anyone) || !noted_this_load_.insert(by + "|" + doc.path).second ||
      inside_distribution(doc.path))
    return;
  auto same = std::find_if(fields_.begin(), fields_.end(), [&](const FieldDoc& field) {
    return field.path == doc.path && field.help == doc.help;
  });
  if (same == fields_.end()) {
    doc.owners = {by};
    fields_.push_back(std::move(doc));
    return;
  }
  if (same->default_text != doc.default_text) {
    conflicts_.push_back(doc.path + ": default " + same->default_text + " (" + *same->owners.begin() +
                         ") vs " + doc.default_text + " (" + by + ")");
  }
  same->owners.insert(by);
}

std::vector<FieldDoc> FieldLog::fields() const {
  // Grouped by top-level section, sections and the fields in each in the order first read.
  const auto section = [](const FieldDoc& field) { return field.path.substr(0, field.path.find('.')); };
  std::map<std::string, size_t> rank;
  for (const auto& field : fields_) rank.emplace(section(field), rank.size());
  std::vector<FieldDoc> out = fields_;
  std::stable_sort(out.begin(), out.end(), [&](const FieldDoc& a, const FieldDoc& b) {
    return rank.at(section(a)) < rank.at(section(b));
  });
  return out;
}

}  // namespace rlsim
