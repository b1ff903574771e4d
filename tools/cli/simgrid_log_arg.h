// `--log` settings passed through to SimGrid, checked first: SimGrid aborts the process on a
// malformed log control string, so rlsim accepts only the forms it documents and answers anything
// else with a usage error (exit 2).
#pragma once

#include <CLI/CLI.hpp>

namespace rlsim {

/// Accepts CATEGORY.KEY:VALUE where CATEGORY is letters, digits, '_' and '.', and KEY:VALUE is
/// thres(hold):trace|debug|verbose|info|warning|error|critical, fmt:FORMAT (printable text),
/// app(ender):file:PATH, or add(itivity):on|off|yes|no|1|0.
CLI::Validator simgrid_log_setting();

}  // namespace rlsim
