// Parsing of precision and card-list flags (see catalog_args.h).
#include "tools/cli/catalog_args.h"

#include "sim/scenario/yaml_reader.h"

namespace rlsim {

Precision precision_option(const std::string& text, const std::string& flag) {
  if (auto p = parse_precision(text)) return *p;
  std::vector<std::string> valid;
  for (Precision p : all_precisions()) valid.emplace_back(to_string(p));
  throw InputError(flag_location(flag), "unknown precision '" + text + "'; valid values are: " + join(valid));
}

std::vector<HardwareSpec> card_list_option(const Catalog& catalog, const std::string& text,
                                           const std::string& flag) {
  std::vector<HardwareSpec> cards;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string name =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) {
      throw InputError(flag_location(flag), "empty card name in '" + text + "'; give names such as H800,H20");
    }
    cards.push_back(catalog.card(name, flag_location(flag)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cards;
}

}  // namespace rlsim
