// Forked child processes with results over pipes.
#include "sim/process/child_pool.h"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/input_error.h"

namespace rlsim {
namespace {

constexpr char kOk = 'O', kInput = 'I', kOutput = 'W', kFailed = 'F';

void write_all(int fd, const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

[[noreturn]] void child_main(int fd, long job, const std::function<std::string(long)>& work) {
  std::string reply;
  int code = 0;
  try {
    reply = kOk + work(job);
  } catch (const InputError& e) {
    reply = kInput + std::string(e.what());
    code = 2;
  } catch (const OutputError& e) {
    reply = kOutput + std::string(e.what());
    code = 1;
  } catch (const std::exception& e) {
    reply = kFailed + std::string(e.what());
    code = 1;
  }
  write_all(fd, reply);
  ::close(fd);
  std::_Exit(code);
}

/// Reads from the children's pipes as data arrives until one of them reaches end of file; returns
/// its index. Every child's reply grows in its own buffer meanwhile.
struct RunningChild {
  pid_t pid;
  long job;
  int fd;             ///< read end of the child's reply pipe
  std::string reply;  ///< what arrived so far
};

size_t wait_for_reply(std::vector<RunningChild>& running) {
  std::vector<pollfd> polled(running.size());
  for (;;) {
    for (size_t i = 0; i < running.size(); ++i) polled[i] = {running[i].fd, POLLIN, 0};
    if (::poll(polled.data(), polled.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot wait for the child processes' replies");
    }
    for (size_t i = 0; i < running.size(); ++i) {
      if (polled[i].revents == 0) continue;
      char buffer[65536];
      const ssize_t n = ::read(running[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        running[i].reply.append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        return i;  // end of file: the child closed its end (or exited)
      }
    }
  }
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

}  // namespace

ChildOutcome run_in_children(const std::vector<long>& jobs, int parallel,
                             const std::function<std::string(long)>& work,
                             const std::function<void(const ChildOutcome&)>& done) {
  std::vector<RunningChild> running;
  ChildOutcome failure{0, true, false, false, ""};
  size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (failure.ok && next < jobs.size() && static_cast<int>(running.size()) < parallel) {
      int fds[2];
      if (::pipe(fds) != 0) throw std::runtime_error("cannot create a pipe for a child process");
      std::cout.flush();
      std::cerr.flush();
      const pid_t parent = ::getpid();
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error("cannot fork a child process");
      if (pid == 0) {
        // A child ends with its parent, however the parent ends (a kill -9 included): it never runs
        // on, or writes into a staging folder the parent's end removed. The parent may have ended
        // before this line: then the child ends at once.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) std::_Exit(1);
        ::close(fds[0]);
        child_main(fds[1], jobs[next], work);
      }
      ::close(fds[1]);
      running.push_back({pid, jobs[next++], fds[0], {}});
    }
    if (running.empty()) break;
    // Replies are read while the children run, so a reply of any size never blocks its writer.
    const size_t finished = wait_for_reply(running);
    RunningChild child = std::move(running[finished]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(finished));
    ::close(child.fd);
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    const std::string& reply = child.reply;
    ChildOutcome outcome{child.job, false, false, false, reply.empty() ? std::string() : reply.substr(1)};
    if (!reply.empty() && reply.front() == kOk && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      outcome.ok = true;
    } else {
      outcome.input_error = !reply.empty() && reply.front() == kInput;
      outcome.output_error = !reply.empty() && reply.front() == kOutput;
      if (reply.empty() || reply.front() == kOk)
        outcome.text = "the process running it ended abnormally (" + describe_status(status) + ")";
      if (failure.ok) failure = outcome;
    }
    done(outcome);
  }
  return failure;
}

void rethrow_child_failure(const ChildOutcome& failure, const std::string& what) {
  if (failure.input_error) throw InputError::relayed(failure.text);
  if (failure.output_error) throw OutputError(failure.text);
  throw std::runtime_error(what + " failed: " + failure.text);
}

}  // namespace rlsim
