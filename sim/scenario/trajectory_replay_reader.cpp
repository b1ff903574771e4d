// Recorded trajectories from JSONL: per-trajectory lines, or a ledger's per-call lines grouped.
#include "sim/scenario/trajectory_replay_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "models/input_file.h"
#include "models/units.h"
#include "sim/scenario/distribution_reader.h"

namespace rlsim {
namespace {

/// Ids are held in an int.
constexpr double kMaxTrajectoryId = 2147483647.0;

/// `object[key]` as a number from `min` to `max` (whole when `whole`); `fallback` when absent and
/// given.
double number(const nlohmann::json& object, const char* key, double min, double max, bool whole,
              const SourceLocation& at, std::optional<double> fallback = std::nullopt) {
  if (!object.contains(key)) {
    if (fallback) return *fallback;
    throw InputError(at, std::string("expected a field '") + key + "'");
  }
  const nlohmann::json& value = object[key];
  if (!value.is_number() || value.get<double>() < min || value.get<double>() > max ||
      (whole && value.get<double>() != std::floor(value.get<double>())))
    throw InputError(at, std::string("expected '") + key + "' as " + (whole ? "a whole number" : "a number") +
                             " from " + format_number(min) + " to " + format_number(max) + ", found " +
                             value.dump());
  return value.get<double>();
}

/// Every key of `object` is one of `known`: a misspelt key (tool_latency for tool_latency_s) would
/// otherwise be read as absent, its default taken without a word.
void check_keys(const nlohmann::json& object, std::initializer_list<const char*> known, const char* what,
                const SourceLocation& at) {
  for (const auto& item : object.items()) {
    const std::string& key = item.key();  // a named reference: lambdas may not capture a structured binding
    if (std::find_if(known.begin(), known.end(), [&](const char* k) { return key == k; }) != known.end())
      continue;
    std::string names;
    for (const char* k : known) names += std::string(names.empty() ? "" : ", ") + k;
    throw InputError(at, "unknown key '" + key + "' in " + what + "; expected " + names);
  }
}

ReplayedTurn turn_of(const nlohmann::json& object, const SourceLocation& at) {
  ReplayedTurn t;
  t.prompt_tokens = number(object, "prompt_tokens", 0.0, kMaxTokensPerSequence, true, at);
  t.output_tokens = number(object, "output_tokens", 1.0, kMaxTokensPerSequence, true, at);
  t.line = at.line;
  return t;
}

struct LedgerCall {
  ReplayedTurn turn;
  double submit_s = 0.0;
  double finish_s = 0.0;
};

/// A key that appears twice in one JSON object (nlohmann would keep one of them without a word).
struct DuplicateKey {
  std::string key;
};

/// One JSONL line parsed, refusing an object that gives a key twice.
nlohmann::json parse_line(const std::string& line) {
  std::vector<std::set<std::string>> keys;  // per object being read, its keys so far
  const nlohmann::json::parser_callback_t unique_keys = [&keys](int, nlohmann::json::parse_event_t event,
                                                                nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) keys.emplace_back();
    if (event == Event::object_end) keys.pop_back();
    if (event == Event::key && !keys.back().insert(parsed.get<std::string>()).second)
      throw DuplicateKey{parsed.get<std::string>()};
    return true;
  };
  return nlohmann::json::parse(line, unique_keys);
}

}  // namespace

std::vector<ReplayedTrajectory> read_trajectories_jsonl(const std::string& file) {
  // A regular file of bounded size, fingerprinted with the scenario's other inputs.
  std::istringstream in(read_input_file(file));
  std::vector<ReplayedTrajectory> trajectories;
  std::map<int, std::map<int, LedgerCall>> ledger;  // trajectory → turn → call
  std::string line;
  int number_of_line = 0;
  while (std::getline(in, line)) {
    ++number_of_line;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const SourceLocation at{file, number_of_line, 1};
    nlohmann::json object;
    try {
      object = parse_line(line);
    } catch (const DuplicateKey& duplicate) {
      throw InputError(at, "key '" + duplicate.key + "' given twice in one object; expected each key once");
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError({file, number_of_line, static_cast<int>(e.byte)}, "expected one JSON object per line");
    } catch (const nlohmann::json::exception&) {  // a number too large for a double, e.g. 1e999
      throw InputError(at, "expected one JSON object per line with numbers a double can hold");
    }
    if (!object.is_object()) throw InputError(at, "expected one JSON object per line");
    if (object.contains("turns")) {
      if (!object["turns"].is_array() || object["turns"].empty())
        throw InputError(
            at, "expected 'turns' as a non-empty list of {prompt_tokens, output_tokens, tool_latency_s}");
      if (static_cast<double>(object["turns"].size()) > kMaxTurnsPerTrajectory)
        throw InputError(at, "expected at most " + format_number(kMaxTurnsPerTrajectory) + " turns, found " +
                                 std::to_string(object["turns"].size()));
      check_keys(object, {"turns"}, "a trajectory", at);
      ReplayedTrajectory t;
      for (const auto& turn : object["turns"]) {
        if (!turn.is_object()) throw InputError(at, "expected each turn as an object");
        check_keys(turn, {"prompt_tokens", "output_tokens", "tool_latency_s"}, "a turn", at);
        ReplayedTurn r = turn_of(turn, at);
        r.tool_latency_s = number(turn, "tool_latency_s", 0.0, kMaxToolLatencySeconds, false, at, 0.0);
        t.turns.push_back(r);
      }
      trajectories.push_back(std::move(t));
    } else if (object.contains("trajectory")) {
      // The ledger's own keys (what `rlsim run` writes to trajectories.jsonl); only some are read.
      check_keys(
          object,
          {"trajectory", "turn", "step", "instance", "prompt_tokens", "prefilled_tokens", "output_tokens",
           "submit_s", "first_token_s", "finish_s", "latency_s", "ttft_s", "weight_version"},
          "a ledger call", at);
      const int id = static_cast<int>(number(object, "trajectory", 0.0, kMaxTrajectoryId, true, at));
      const int turn = static_cast<int>(number(object, "turn", 0.0, kMaxTurnsPerTrajectory, true, at));
      LedgerCall call{turn_of(object, at), number(object, "submit_s", 0.0, kMaxRecordedSeconds, false, at),
                      number(object, "finish_s", 0.0, kMaxRecordedSeconds, false, at)};
      if (!ledger[id].emplace(turn, call).second)
        throw InputError(
            at, "trajectory " + std::to_string(id) + " turn " + std::to_string(turn) + " appears twice");
    } else {
      throw InputError(at,
                       "expected a trajectory ({\"turns\": [...]}) or a ledger call ({\"trajectory\": ..., "
                       "\"turn\": ..., ...})");
    }
  }
  if (!trajectories.empty() && !ledger.empty())
    throw InputError({file, 1, 1}, "expected either trajectories or ledger calls, not both");
  for (const auto& [id, calls] : ledger) {
    ReplayedTrajectory t;
    int expected_turn = 0;
    for (auto it = calls.begin(); it != calls.end(); ++it, ++expected_turn) {
      if (it->first != expected_turn)
        throw InputError({file, 1, 1}, "trajectory " + std::to_string(id) + " lacks turn " +
                                           std::to_string(expected_turn) + " (the file's ledger calls)");
      ReplayedTurn turn = it->second.turn;
      if (const auto next = std::next(it); next != calls.end())
        turn.tool_latency_s = std::max(0.0, next->second.submit_s - it->second.finish_s);
      t.turns.push_back(turn);
    }
    trajectories.push_back(std::move(t));
  }
  if (trajectories.empty()) throw InputError({file, 1, 1}, "expected at least one trajectory");
  return trajectories;
}

}  // namespace rlsim
