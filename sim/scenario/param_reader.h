// Reading a plug-in's parameters from its YAML block against the plug-in's schema: each key with
// the getter of its type, the schema's default when absent, recorded into resolved.yaml like every
// other field, and errors at the parameter's own line and column.
#pragma once

#include "models/registry/param_schema.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// Reads every key of `schema` from `r` (which may hold other keys too; the caller calls finish()).
ParamValues read_params(YamlReader& r, const ParamSchema& schema);

}  // namespace rlsim
