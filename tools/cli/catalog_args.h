// Command-line values shared by the commands that look at cards and models (roofline, review,
// cost, plan, compare): precisions, comma-separated lists and card lists, checked with errors that
// name the flag and list the valid values (InputError, exit 2).
#pragma once

#include <string>
#include <vector>

#include "models/cost/roofline.h"
#include "models/hardware.h"
#include "models/input_error.h"
#include "models/precision.h"
#include "sim/scenario/catalog.h"

namespace rlsim {

/// Where a command-line flag's value came from, for InputError (e.g. "--precision").
inline SourceLocation flag_location(const std::string& flag) { return {flag, 0, 0}; }

/// The non-empty items of a comma-separated value ("a,b,,c" -> a, b, c), in order.
std::vector<std::string> comma_separated(const std::string& text);

/// Parses a precision given to `flag`; unknown text lists the valid precisions.
Precision precision_option(const std::string& text, const std::string& flag);
/// The cards named in "H800,H20" (each checked against the catalog); empty items are errors.
std::vector<HardwareSpec> card_list_option(const Catalog& catalog, const std::string& text,
                                           const std::string& flag);
/// The members of a mixed pool in "H800:16,H20:16" (a card without a count is one card).
std::vector<PoolMember> pool_members_option(const Catalog& catalog, const std::string& text,
                                            const std::string& flag);

}  // namespace rlsim
