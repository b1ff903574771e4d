// Bounded, located JSON parsing of user files.
#include "calibrate/json_input.h"

#include "models/input_error.h"
#include "models/text_encoding.h"

namespace rlsim {
namespace {

/// Thrown from the parser callback when the nesting gets too deep; carries the depth reached.
struct TooDeep {};

}  // namespace

nlohmann::json parse_json_input(const std::string& text, const std::string& file) {
  using json = nlohmann::json;
  // The callback sees each value's depth before nlohmann recurses into it.
  const json::parser_callback_t bounded = [](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxJsonDepth)
      throw TooDeep{};
    return true;
  };
  try {
    return json::parse(text, bounded);
  } catch (const json::parse_error& e) {
    throw InputError(location_at(text, e.byte > 0 ? e.byte - 1 : 0, file),
                     "not valid JSON: " + std::string(e.what()));
  } catch (const json::exception& e) {
    throw InputError({file, 1, 1}, "not valid JSON: " + std::string(e.what()));
  } catch (const TooDeep&) {
    throw InputError({file, 1, 1}, "JSON nested more than " + std::to_string(kMaxJsonDepth) +
                                       " levels deep; no rlsim file nests that deep");
  }
}

}  // namespace rlsim
