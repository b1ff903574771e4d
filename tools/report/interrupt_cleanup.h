// Removes the staging folders of unfinished outputs when rlsim is stopped: by SIGTERM, SIGINT or
// SIGHUP (a handler that removes them with async-signal-safe calls, then dies of the same signal)
// and by exit() from inside a library (SimGrid's own Ctrl-C handler ends the process with exit(1),
// past every destructor). A kill -9 cannot be caught: StagedOutput removes such orphans on the
// next run to the same folder.
#pragma once

#include <string>

namespace rlsim {

/// Registers `folder` (a staging folder this process created) for removal if the process is
/// stopped before unregister_staging_folder(folder). At most 16 are held at once.
void register_staging_folder(const std::string& folder);
void unregister_staging_folder(const std::string& folder);

}  // namespace rlsim
