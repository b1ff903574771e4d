// Named enums: an enum class and the name of each value, declared together from one X-macro list
// so that parsing a scenario, writing resolved.yaml, writing metrics and listing the valid values
// in an error all read the same table and cannot drift apart. Adding a value is one line in its
// list. The name of a value is its identifier, spelled exactly as it appears in files.
//
//   #define RLSIM_FRUITS(X) X(apple) X(pear)
//   RLSIM_NAMED_ENUM(Fruit, RLSIM_FRUITS)
//   enum_name(Fruit::pear) == "pear";  parse_enum<Fruit>("apple") == Fruit::apple
//
// A list entry may carry further columns after the value, X(value, ...); they are ignored here
// and read by the enum's own header (see sim/platform/gpu_state.h).
#pragma once

#include <array>
#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlsim {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

#define RLSIM_ENUM_VALUE_(value, ...) value,
#define RLSIM_ENUM_ENTRY_(value, ...) EnumName<E>{E::value, #value},

/// Declares `enum class Type` with the values of LIST, and `enum_table(Type)` (found by
/// argument-dependent lookup) returning every value with its name, in declaration order.
#define RLSIM_NAMED_ENUM(Type, LIST)                              \
  enum class Type : unsigned char { LIST(RLSIM_ENUM_VALUE_) };    \
  struct Type##NameTable {                                        \
    using E = Type;                                               \
    static constexpr std::array entries{LIST(RLSIM_ENUM_ENTRY_)}; \
  };                                                              \
  constexpr const auto& enum_table(Type) { return Type##NameTable::entries; }

/// The name of `value` as written in files.
template <class E>
constexpr std::string_view enum_name(E value) {
  for (const auto& entry : enum_table(value)) {
    if (entry.value == value) return entry.name;
  }
  assert(false && "every value of a named enum is in its table");
  return {};
}

/// The value named `name`, or nothing.
template <class E>
constexpr std::optional<E> parse_enum(std::string_view name) {
  for (const auto& entry : enum_table(E{})) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

/// Every value, in declaration order.
template <class E>
std::vector<E> enum_values() {
  std::vector<E> values;
  for (const auto& entry : enum_table(E{})) values.push_back(entry.value);
  return values;
}

/// Every name, in declaration order (the valid values an error message lists).
template <class E>
std::vector<std::string> enum_names() {
  std::vector<std::string> names;
  for (const auto& entry : enum_table(E{})) names.emplace_back(entry.name);
  return names;
}

}  // namespace rlsim
