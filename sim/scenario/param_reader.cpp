// read_params: one YamlReader getter per parameter type.
#include "sim/scenario/param_reader.h"

namespace rlsim {

ParamValues read_params(YamlReader& r, const ParamSchema& schema) {
  ParamValues values;
  for (const auto& spec : schema) {
    const SourceLocation where = r.has(spec.key) ? r.where(spec.key) : r.where();
    switch (spec.type) {
      case ParamType::integer:
        values.set(spec.key,
                   r.integer_or(spec.key, std::get<int64_t>(spec.fallback), static_cast<int64_t>(spec.min),
                                static_cast<int64_t>(spec.max)),
                   where);
        break;
      case ParamType::number:
        values.set(spec.key, r.number_or(spec.key, std::get<double>(spec.fallback), spec.min, spec.max), where);
        break;
      case ParamType::quantity:
        values.set(spec.key,
                   r.quantity_or(spec.key, spec.quantity, std::get<double>(spec.fallback), spec.allow_zero), where);
        break;
      case ParamType::flag: values.set(spec.key, r.flag_or(spec.key, std::get<bool>(spec.fallback)), where); break;
      case ParamType::choice:
        values.set(spec.key, r.choice_or(spec.key, spec.choices, std::get<std::string>(spec.fallback)), where);
        break;
    }
  }
  return values;
}

}  // namespace rlsim
