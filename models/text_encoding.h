// Text positions and UTF-8 checking for text rlsim reads (scenario files, `--set` values, CSV cells) and
// writes back into JSON, which must be valid UTF-8: an invalid byte is an input error where it was read, not
// a failure when the output is written.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "models/input_error.h"

namespace rlsim {

/// The offset of the first byte of `text` that does not belong to a well-formed UTF-8 sequence
/// (overlong forms, surrogates and code points past U+10FFFF are not well-formed); nullopt if none.
std::optional<size_t> first_invalid_utf8(std::string_view text);

/// The 1-based line and column of byte `offset` of `text`, which came from `file`.
SourceLocation location_at(std::string_view text, size_t offset, std::string file);

}  // namespace rlsim
