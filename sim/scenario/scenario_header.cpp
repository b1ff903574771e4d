// A scenario file's name and seed, the input files it names beside it, and resolved.yaml's text.
#include "sim/scenario/scenario_header.h"

#include <filesystem>

namespace rlsim {

std::string input_file_beside(YamlReader& r, const std::string& key, const std::string& named,
                              const std::string& scenario_path, const std::string& what) {
  const std::filesystem::path full = std::filesystem::path(scenario_path).parent_path() / named;
  std::error_code error;
  if (!std::filesystem::exists(full, error)) r.fail(key, what + " '" + full.string() + "' does not exist");
  r.record(key, YAML::Node(std::filesystem::absolute(full, error).lexically_normal().string()));
  return full.string();
}

void read_name_and_seed(YamlReader& root, const std::string& path, const LoadOptions& options,
                        uint64_t default_seed, std::string& name, uint64_t& seed) {
  name = root.text_or({"name", "the run's name in outputs and reports", "", "the file's name"},
                      std::filesystem::path(path).stem().string());
  seed = static_cast<uint64_t>(
      root.integer_or({"seed", "seed every random draw derives from; same seed, same outputs"},
                      static_cast<int64_t>(default_seed), 0, INT64_MAX));
  if (options.seed) {
    seed = *options.seed;
    root.record("seed", YAML::Node(static_cast<unsigned long long>(seed)));
  }
}

std::string resolved_yaml_text(const YAML::Node& resolved) {
  YAML::Emitter out;
  out << resolved;
  return std::string(kResolvedYamlHeader) + out.c_str() + "\n";
}

}  // namespace rlsim
