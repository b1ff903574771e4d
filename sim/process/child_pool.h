// ChildPool: runs jobs in forked child processes, at most N at once, each returning a text of any
// size to the parent through a pipe read while the child runs. The simulator needs this (SimGrid allows one
// engine per process); the parent stays single-threaded and never creates an engine.
// A child's InputError and OutputError come back as such; any other failure as a runtime error naming the
// job. A child ends when its parent does, however the parent ends (Linux's PR_SET_PDEATHSIG), so a killed
// sweep or compare leaves no process running on.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rlsim {

struct ChildOutcome {
  long job = 0;
  bool ok = false;
  bool input_error = false;   ///< the child threw InputError (message holds its text)
  bool output_error = false;  ///< the child threw OutputError (a write failed: a full disk)
  std::string text;           ///< the job's result, or the error message
};

/// Throws `failure` as its child threw it: an InputError with the child's text, an OutputError (a
/// write failed: exit 1 naming the path), else a runtime_error "`what` failed: text" (a bug).
[[noreturn]] void rethrow_child_failure(const ChildOutcome& failure, const std::string& what);

/// Runs `work(job)` for each job in `jobs`, `parallel` at a time, calling `done` in the parent (in
/// completion order) as each finishes. Stops starting new jobs after the first failure, waits for
/// the running ones, and returns that failure (ok = true when all succeeded).
ChildOutcome run_in_children(const std::vector<long>& jobs, int parallel,
                             const std::function<std::string(long)>& work,
                             const std::function<void(const ChildOutcome&)>& done);

}  // namespace rlsim
