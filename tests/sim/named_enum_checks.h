// A check shared by the tests of named enums (models/named_enum.h): every value's name parses
// back to that value, and no two values share a name.
#pragma once

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "models/named_enum.h"

namespace rlsim::test {

template <class E>
void check_name_table() {
  std::set<std::string> names;
  for (E value : enum_values<E>()) {
    const std::string name(enum_name(value));
    INFO(name);
    CHECK_FALSE(name.empty());
    CHECK(parse_enum<E>(name) == value);
    CHECK(names.insert(name).second);
  }
  CHECK(names.size() == enum_names<E>().size());
  CHECK_FALSE(parse_enum<E>("no such value").has_value());
}

}  // namespace rlsim::test
