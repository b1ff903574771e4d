// Reading an input file a user named (scenario, catalog, profile, measurements, traces, sweep
// manifests): it must be a regular file no larger than a stated limit, so a FIFO, a device such as
// /dev/zero or a folder is an input error with the path, never an endless read. The files read are
// remembered (path and content hash) for the fingerprint that ties a sweep's rows to its inputs.
#pragma once

#include <cstddef>
#include <string>

namespace rlsim {

/// Largest input file read, in bytes, unless a caller states another limit: far above any real
/// scenario, catalog, profile or measurement file (the bundled ones are under 1 MiB).
constexpr size_t kMaxInputFileBytes = size_t{256} << 20;

/// Whether a file read is an input of the simulation (scenario, catalog, profile, trace), counted
/// in inputs_fingerprint(), or bookkeeping such as a sweep's own manifest.
enum class InputRole { simulation, bookkeeping };

/// The whole content of `path`. Throws InputError (exit 2) naming the path when it does not exist,
/// is not a regular file, cannot be read, or holds more than `max_bytes`.
std::string read_input_file(const std::string& path, size_t max_bytes = kMaxInputFileBytes,
                            InputRole role = InputRole::simulation);

/// A fingerprint of the contents of every simulation input read so far through read_input_file, as
/// 16 hex digits of a 64-bit FNV-1a hash: what a sweep manifest records so that a resumed or merged
/// sweep refuses rows simulated from other scenario, catalog or profile contents. Not cryptographic.
std::string inputs_fingerprint();

}  // namespace rlsim
