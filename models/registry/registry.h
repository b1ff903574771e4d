// Registry<Product, Args...>: the one by-name registry behind every extension point (orchestration
// policies, routers, cost models, CLI commands, replica schedulers). An entry carries its name, a
// one-line description and the schema of its parameters; `make` builds the product from parameter
// values already read and checked against that schema (sim/scenario/param_reader.h reads them from
// a YAML block), so a plug-in owns its parameters and each default is declared once, in its entry.
// Entries register from a static initialiser in the plug-in's own file (RLSIM_REGISTER in the
// extension point's header); libraries holding plug-ins are linked whole-archive so none is dropped.
#pragma once

#include <algorithm>
#include <cassert>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/input_error.h"
#include "models/registry/param_schema.h"

namespace rlsim {

template <class Product, class... Args>
class Registry {
 public:
  struct Entry {
    std::string name;
    std::string description;  ///< one line, shown by `rlsim list`
    ParamSchema params;       ///< what the entry reads from its YAML block (may be empty)
    std::function<std::unique_ptr<Product>(const ParamValues&, Args...)> make;
    int order = 0;  ///< listing order (then by name); 0 for all = alphabetical
  };

  /// The one registry of this product type (shared by every translation unit).
  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  /// Adds an entry; returns true so it can run in a static initialiser. Names are unique.
  bool add(Entry entry) {
    assert(find(entry.name) == nullptr && "an extension point's entries have unique names");
    entries_.push_back(std::move(entry));
    std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      return a.order != b.order ? a.order < b.order : a.name < b.name;
    });
    return true;
  }

  /// Every entry, in listing order.
  const std::vector<Entry>& entries() const { return entries_; }

  /// The entry `name`, or nullptr.
  const Entry* find(const std::string& name) const {
    for (const auto& entry : entries_) {
      if (entry.name == name) return &entry;
    }
    return nullptr;
  }

  /// The entry `name`, or InputError at `where` listing the valid names ("what" names the kind).
  const Entry& at(const std::string& name, const SourceLocation& where, const std::string& what) const {
    if (const Entry* entry = find(name)) return *entry;
    std::string valid;
    for (const auto& known : names()) valid += (valid.empty() ? "" : ", ") + known;
    throw InputError(where, "unknown " + what + " '" + name + "'; valid values are: " + valid);
  }

  /// Names in listing order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : entries_) out.push_back(entry.name);
    return out;
  }

 private:
  std::vector<Entry> entries_;
};

}  // namespace rlsim
