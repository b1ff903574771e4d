// Catalog: the hardware cards, model architectures and engine presets a scenario may name. The
// built-in catalog is scenarios/catalog/*.yaml; a scenario's `catalog:` files add rows or replace
// rows by name.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/hardware.h"
#include "models/input_error.h"
#include "models/model_arch.h"
#include "models/timing/engine_overhead.h"

namespace rlsim {

struct Catalog {
  std::map<std::string, HardwareSpec> hardware;
  std::map<std::string, ModelArch> models;
  std::map<std::string, EngineOverhead> engines;  ///< inference-engine presets (engines.yaml)

  /// The card named `name`, or an InputError at `where` listing the known cards.
  const HardwareSpec& card(const std::string& name, const SourceLocation& where) const;
  /// The model named `name`, or an InputError at `where` listing the known models.
  const ModelArch& model(const std::string& name, const SourceLocation& where) const;
  /// The engine preset named `name`, or an InputError at `where` listing the known presets.
  const EngineOverhead& engine(const std::string& name, const SourceLocation& where) const;
  std::vector<std::string> hardware_names() const;
  std::vector<std::string> model_names() const;
  std::vector<std::string> engine_names() const;
};

/// Where the built-in data lives: $RLSIM_DATA_DIR, else the source tree the binary was built from.
std::string default_data_dir();

/// Reads one catalog file (keys `hardware:`, `models:` and/or `engines:`) into `catalog`, replacing rows by
/// name.
void load_catalog_file(const std::string& path, Catalog& catalog);
/// Reads every *.yaml under `data_dir`/scenarios/catalog in name order.
Catalog load_builtin_catalog(const std::string& data_dir = default_data_dir());

}  // namespace rlsim
