// Progress of a command that finishes jobs one by one (compare's policies, sweep's points, run's
// steps): after
// each, "[k/N] what: took X, elapsed Y, ETA Z" — on stderr while it is a terminal (a line rewritten
// in place), nothing otherwise or when quiet. ETA = elapsed / done × remaining; "took" is the job's
// own wall time, measured where it ran (jobs may run in parallel).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <utility>

namespace rlsim {

class Progress {
 public:
  /// `total` jobs; `enabled` false silences it (--quiet); it is also silent when stderr is no terminal.
  Progress(long total, bool enabled);
  /// Notes one job finished (`what` names it, it took `job_s`) and shows the line; returns the
  /// line's figures ("took 4.21 s, elapsed 12.6 s, ETA 25.2 s") for callers that also print them.
  std::string finished(const std::string& what, double job_s);
  /// Sets the number of jobs, for work that learns it once started (a run's steps).
  void set_total(long total) { total_ = total; }
  /// Ends the in-place line (a newline), when anything was shown.
  ~Progress();

 private:
  using Clock = std::chrono::steady_clock;
  long total_;
  long done_ = 0;
  bool shown_ = false;
  bool terminal_;
  Clock::time_point start_ = Clock::now();
};

/// Wall seconds `work` takes, and its result: `timed(work)` returns "<seconds>\n<result>", which
/// `untimed` splits back (for work done in a child process that returns text).
std::string timed(const std::function<std::string()>& work);
std::pair<double, std::string> untimed(const std::string& text);

}  // namespace rlsim
