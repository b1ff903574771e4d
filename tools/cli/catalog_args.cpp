// Parsing of precision and card-list flags (see catalog_args.h).
#include "tools/cli/catalog_args.h"

#include <sstream>

#include "sim/scenario/yaml_reader.h"

namespace rlsim {

std::vector<std::string> comma_separated(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

Precision precision_option(const std::string& text, const std::string& flag) {
  if (auto p = parse_precision(text)) return *p;
  throw InputError(flag_location(flag),
                   "unknown precision '" + text + "'; valid values are: " + precision_names());
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

std::vector<PoolMember> pool_members_option(const Catalog& catalog, const std::string& text,
                                            const std::string& flag) {
  std::string names;
  std::vector<int> counts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t colon = item.find(':');
    int count = 1;
    if (colon != std::string::npos) {
      const std::string digits = item.substr(colon + 1);
      size_t used = 0;
      long parsed = 0;
      try {
        parsed = std::stol(digits, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != digits.size() || parsed < 1 || parsed > 1'000'000) {
        throw InputError(flag_location(flag), "expected CARD:COUNT with a count from 1 to 1000000 in '" +
                                                  item + "', e.g. H800:16,H20:16");
      }
      count = static_cast<int>(parsed);
    }
    names += (names.empty() && counts.empty() ? "" : ",") + item.substr(0, colon);
    counts.push_back(count);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  const std::vector<HardwareSpec> cards = card_list_option(catalog, names, flag);
  std::vector<PoolMember> members;
  for (size_t i = 0; i < cards.size(); ++i) members.push_back({cards[i], counts[i]});
  return members;
}

}  // namespace rlsim
