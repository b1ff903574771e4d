// Forked child processes with results over pipes.
#include "sim/process/child_pool.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <stdexcept>

#include "models/input_error.h"

namespace rlsim {
namespace {

constexpr char kOk = 'O', kInput = 'I', kFailed = 'F';

void write_all(int fd, const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(n));
  return text;
}

[[noreturn]] void child_main(int fd, long job, const std::function<std::string(long)>& work) {
  std::string reply;
  int code = 0;
  try {
    reply = kOk + work(job);
  } catch (const InputError& e) {
    reply = kInput + std::string(e.what());
    code = 2;
  } catch (const std::exception& e) {
    reply = kFailed + std::string(e.what());
    code = 1;
  }
  write_all(fd, reply);
  ::close(fd);
  std::_Exit(code);
}

}  // namespace

ChildOutcome run_in_children(const std::vector<long>& jobs, int parallel,
                             const std::function<std::string(long)>& work,
                             const std::function<void(const ChildOutcome&)>& done) {
  struct Running {
    long job;
    int fd;
  };
  std::map<pid_t, Running> running;
  ChildOutcome failure{0, true, false, ""};
  size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (failure.ok && next < jobs.size() && static_cast<int>(running.size()) < parallel) {
      int fds[2];
      if (::pipe(fds) != 0) throw std::runtime_error("cannot create a pipe for a sweep point");
      std::cout.flush();
      std::cerr.flush();
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error("cannot fork a process for a sweep point");
      if (pid == 0) {
        ::close(fds[0]);
        child_main(fds[1], jobs[next], work);
      }
      ::close(fds[1]);
      running[pid] = {jobs[next++], fds[0]};
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    auto it = running.find(pid);
    if (it == running.end()) continue;
    // Replies are a few hundred bytes: they sit in the pipe's buffer until the child is reaped.
    const std::string reply = read_all(it->second.fd);
    ::close(it->second.fd);
    ChildOutcome outcome{it->second.job, false, false, reply.empty() ? std::string() : reply.substr(1)};
    running.erase(it);
    if (!reply.empty() && reply.front() == kOk && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      outcome.ok = true;
    } else {
      outcome.input_error = !reply.empty() && reply.front() == kInput;
      if (reply.empty())
        outcome.text = "the process running it ended abnormally (status " + std::to_string(status) + ")";
      if (failure.ok) failure = outcome;
    }
    done(outcome);
  }
  return failure;
}

}  // namespace rlsim
