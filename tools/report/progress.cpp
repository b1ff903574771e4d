// Elapsed time and ETA of jobs finishing one by one, shown on a terminal's stderr.
#include "tools/report/progress.h"

#include <unistd.h>

#include <cstdio>

#include "tools/report/text_format.h"

namespace rlsim {

Progress::Progress(long total, bool enabled) : total_(total), terminal_(enabled && isatty(STDERR_FILENO)) {}

std::string Progress::finished(const std::string& what, double job_s) {
  const double elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
  ++done_;
  const double eta_s = elapsed_s / static_cast<double>(done_) * static_cast<double>(total_ - done_);
  const std::string figures = "took " + readable_duration(job_s) + ", elapsed " +
                              readable_duration(elapsed_s) + ", ETA " + readable_duration(eta_s);
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K[%ld/%ld] %s: %s", done_, total_, what.c_str(), figures.c_str());
    std::fflush(stderr);
    shown_ = true;
  }
  return figures;
}

Progress::~Progress() {
  if (shown_) std::fprintf(stderr, "\n");
}

std::string timed(const std::function<std::string()>& work) {
  const auto start = std::chrono::steady_clock::now();
  std::string result = work();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return formatted("%.6f", seconds) + "\n" + result;
}

std::pair<double, std::string> untimed(const std::string& text) {
  const size_t newline = text.find('\n');
  if (newline == std::string::npos) return {0.0, text};
  return {std::stod(text.substr(0, newline)), text.substr(newline + 1)};
}

}  // namespace rlsim
