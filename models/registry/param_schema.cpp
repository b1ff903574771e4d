// ParamSpec builders and display, and ParamValues lookups.
#include "models/registry/param_schema.h"

#include <algorithm>
#include <cassert>

namespace rlsim {

ParamSpec ParamSpec::integer(std::string key, int64_t fallback, int64_t min, int64_t max, std::string help,
                             std::string unit) {
  ParamSpec p;
  p.key = std::move(key);
  p.type = ParamType::integer;
  p.fallback = fallback;
  p.min = static_cast<double>(min);
  p.max = static_cast<double>(max);
  p.whole_min = min;
  p.whole_max = max;
  p.help = std::move(help);
  p.unit = std::move(unit);
  return p;
}

ParamSpec ParamSpec::number(std::string key, double fallback, double min, double max, std::string help,
                            std::string unit) {
  ParamSpec p;
  p.key = std::move(key);
  p.type = ParamType::number;
  p.fallback = fallback;
  p.min = min;
  p.max = max;
  p.help = std::move(help);
  p.unit = std::move(unit);
  return p;
}

ParamSpec ParamSpec::quantity_of(std::string key, Quantity kind, double fallback, std::string help,
                                 bool allow_zero) {
  ParamSpec p;
  p.key = std::move(key);
  p.type = ParamType::quantity;
  p.quantity = kind;
  p.fallback = fallback;
  p.allow_zero = allow_zero;
  p.help = std::move(help);
  switch (kind) {
    case Quantity::bandwidth: p.unit = "B/s"; break;
    case Quantity::duration: p.unit = "s"; break;
    case Quantity::flop_rate: p.unit = "FLOP/s"; break;
    case Quantity::bytes: p.unit = "B"; break;
  }
  return p;
}

ParamSpec ParamSpec::flag(std::string key, bool fallback, std::string help) {
  ParamSpec p;
  p.key = std::move(key);
  p.type = ParamType::flag;
  p.fallback = fallback;
  p.help = std::move(help);
  return p;
}

ParamSpec ParamSpec::choice(std::string key, std::vector<std::string> choices, std::string fallback,
                            std::string help) {
  ParamSpec p;
  p.key = std::move(key);
  p.type = ParamType::choice;
  p.choices = std::move(choices);
  p.fallback = std::move(fallback);
  p.help = std::move(help);
  return p;
}

std::string ParamSpec::type_text() const {
  switch (type) {
    case ParamType::integer: return "integer";
    case ParamType::number: return "number";
    case ParamType::quantity:
      switch (quantity) {
        case Quantity::bandwidth: return "bandwidth";
        case Quantity::duration: return "duration";
        case Quantity::flop_rate: return "flop rate";
        case Quantity::bytes: return "bytes";
      }
      return "quantity";
    case ParamType::flag: return "flag";
    case ParamType::choice: return "choice";
  }
  return "";
}

namespace {

/// A value of `spec`'s type as a person writes it.
std::string value_text(const ParamSpec& spec, const ParamValues::Value& value) {
  switch (spec.type) {
    case ParamType::integer: return std::to_string(std::get<int64_t>(value));
    case ParamType::number: return format_number(std::get<double>(value));
    case ParamType::quantity: return format_quantity(std::get<double>(value), spec.quantity);
    case ParamType::flag: return std::get<bool>(value) ? "true" : "false";
    case ParamType::choice: return std::get<std::string>(value);
  }
  return "";
}

}  // namespace

std::string ParamSpec::default_text() const { return value_text(*this, fallback); }

std::string ParamSpec::range_text() const {
  switch (type) {
    case ParamType::integer: return std::to_string(whole_min) + " to " + std::to_string(whole_max);
    case ParamType::number: return format_number(min) + " to " + format_number(max);
    case ParamType::quantity: return allow_zero ? ">= 0" : "> 0";
    case ParamType::flag: return "true | false";
    case ParamType::choice: {
      std::string out;
      for (const auto& c : choices) out += (out.empty() ? "" : " | ") + c;
      return out;
    }
  }
  return "";
}

bool declares(const ParamSchema& schema, const std::string& key) {
  return std::any_of(schema.begin(), schema.end(), [&](const ParamSpec& spec) { return spec.key == key; });
}

void ParamValues::set(const std::string& key, Value value, SourceLocation where) {
  values_[key] = Located{std::move(value), std::move(where)};
}

const ParamValues::Located& ParamValues::get(const std::string& key) const {
  auto it = values_.find(key);
  assert(it != values_.end() && "a plug-in reads only the parameters its schema declares");
  return it->second;
}

int64_t ParamValues::integer(const std::string& key) const { return std::get<int64_t>(get(key).value); }
double ParamValues::number(const std::string& key) const { return std::get<double>(get(key).value); }
bool ParamValues::flag(const std::string& key) const { return std::get<bool>(get(key).value); }
const std::string& ParamValues::text(const std::string& key) const {
  return std::get<std::string>(get(key).value);
}
const SourceLocation& ParamValues::where(const std::string& key) const { return get(key).where; }

std::string ParamValues::text_of(const ParamSpec& spec) const {
  return value_text(spec, has(spec.key) ? get(spec.key).value : spec.fallback);
}

ParamValues ParamValues::defaults(const ParamSchema& schema, const SourceLocation& where) {
  ParamValues values;
  for (const auto& spec : schema) values.set(spec.key, spec.fallback, where);
  return values;
}

ParamValues ParamValues::with_defaults(const ParamSchema& schema) const {
  ParamValues values = *this;
  for (const auto& spec : schema) {
    if (!has(spec.key)) values.set(spec.key, spec.fallback, {"(default)", 0, 0});
  }
  return values;
}

}  // namespace rlsim
