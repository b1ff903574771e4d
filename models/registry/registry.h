// Registry<Product, Args...>: the one by-name registry behind every extension point (orchestration
// policies, routers, cost models, CLI commands). An entry carries its name, a one-line description
// and the schema of its parameters; `make` builds the product from parameter values read and
// checked against that schema (sim/scenario/param_reader.h reads them from a YAML block) and the
// extension point's own arguments (`Args`, e.g. a router's instance count), so a plug-in owns its
// parameters and each default is declared once, in its entry. Entries register from a static
// initialiser in the plug-in's own file, in one line (RLSIM_REGISTRY_ADD, wrapped by a macro in
// each extension point's header); libraries holding plug-ins are linked whole-archive so none is
// dropped. The registry needs `Product` complete only where an entry is added or made, so a layer
// below the plug-ins can list names and schemas from a forward declaration.
#pragma once

#include <algorithm>
#include <cassert>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/input_error.h"
#include "models/registry/param_schema.h"

namespace rlsim {

/// Which entry of a registry a scenario chose, its parameter values, and where it was chosen.
struct PluginSpec {
  std::string name;
  ParamValues params{};    ///< a key not set here takes its schema default when the plug-in is made
  SourceLocation where{};  ///< of the name (or of its block when defaulted), for errors found later
};

template <class Product, class... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(const ParamValues&, Args...)>;

  struct Entry {
    std::string name;
    std::string description;  ///< one line, shown by `rlsim list`
    ParamSchema params;       ///< what the entry reads from its YAML block (may be empty)
    Factory make;
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

  /// Adds `Type`, made from (parameter values, Args...) when it has that constructor, else from
  /// (Args...) alone: a plug-in without parameters needs no constructor for them.
  template <class Type>
  bool add_type(std::string name, std::string description, ParamSchema params = {}, int order = 0) {
    Factory make = [](const ParamValues& values, Args... args) -> std::unique_ptr<Product> {
      if constexpr (std::is_constructible_v<Type, const ParamValues&, Args...>) {
        return std::make_unique<Type>(values, std::forward<Args>(args)...);
      } else {
        (void)values;
        return std::make_unique<Type>(std::forward<Args>(args)...);
      }
    };
    return add({std::move(name), std::move(description), std::move(params), std::move(make), order});
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

  /// Makes the entry `name` (InputError at `where` when unknown) from `values`, a parameter not
  /// among them taking its schema default, so a plug-in chosen in code gets the defaults YAML gives.
  std::unique_ptr<Product> make(const std::string& name, const ParamValues& values,
                                const SourceLocation& where, const std::string& what, Args... args) const {
    const Entry& entry = at(name, where, what);
    return entry.make(values.with_defaults(entry.params), std::forward<Args>(args)...);
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

/// Registers `Type` in `RegistryType` from a static initialiser; the rest are add_type's arguments.
#define RLSIM_REGISTRY_ADD(RegistryType, Type, ...)            \
  [[maybe_unused]] static const bool rlsim_registered_##Type = \
      RegistryType::instance().add_type<Type>(__VA_ARGS__)
