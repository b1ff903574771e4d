// Staging folders removed when rlsim is stopped: signal handlers and an exit hook.
#include "tools/report/interrupt_cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace rlsim {
namespace {

struct Slot {
  std::atomic<bool> used{false};
  pid_t owner = 0;  ///< a forked child inherits the table but must not remove its parent's folder
  char path[4096] = {};
};
Slot slots[16];

/// The record getdents64 fills (linux/dirent.h's linux_dirent64).
struct DirectoryRecord {
  uint64_t inode;
  int64_t offset;
  unsigned short length;
  unsigned char type;
  char name[1];
};

/// Removes `name` under the folder open as `parent` and, if it is a folder, all it holds, with
/// async-signal-safe calls only (openat, getdents64, unlinkat, close).
void remove_tree(int parent, const char* name) {
  if (::unlinkat(parent, name, 0) == 0 || errno == ENOENT) return;
  const int folder = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folder < 0) return;
  // Entries removed while a folder is listed may hide others: list again until it is empty.
  for (int pass = 0; pass < 8; ++pass) {
    bool removed_any = false;
    ::lseek(folder, 0, SEEK_SET);
    char buffer[4096];
    for (;;) {
      const long n = ::syscall(SYS_getdents64, folder, buffer, sizeof buffer);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        const auto* record = reinterpret_cast<const DirectoryRecord*>(buffer + at);
        at += record->length;
        if (std::strcmp(record->name, ".") == 0 || std::strcmp(record->name, "..") == 0) continue;
        remove_tree(folder, record->name);
        removed_any = true;
      }
    }
    if (!removed_any) break;
  }
  ::close(folder);
  ::unlinkat(parent, name, AT_REMOVEDIR);
}

void remove_registered_folders() {
  const pid_t self = ::getpid();
  for (Slot& slot : slots) {
    if (slot.used.load() && slot.owner == self) remove_tree(AT_FDCWD, slot.path);
  }
}

void on_stop_signal(int signal_number) {
  const int saved = errno;
  remove_registered_folders();
  errno = saved;
  // SA_RESETHAND restored the default action and SA_NODEFER lets it act now: the process ends
  // as killed by this signal, as its parent expects.
  ::raise(signal_number);
}

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(signal_number, &action, nullptr);
    std::atexit(remove_registered_folders);
  });
}

}  // namespace

void register_staging_folder(const std::string& folder) {
  install_once();
  std::error_code error;
  const std::string absolute = std::filesystem::absolute(folder, error).string();
  if (error || absolute.size() >= sizeof slots[0].path) return;  // left for the next run to remove
  for (Slot& slot : slots) {
    if (slot.used.load()) continue;
    std::memcpy(slot.path, absolute.c_str(), absolute.size() + 1);
    slot.owner = ::getpid();
    slot.used.store(true);
    return;
  }
}

void unregister_staging_folder(const std::string& folder) {
  std::error_code error;
  const std::string absolute = std::filesystem::absolute(folder, error).string();
  for (Slot& slot : slots) {
    if (slot.used.load() && slot.owner == ::getpid() && absolute == slot.path) slot.used.store(false);
  }
}

}  // namespace rlsim
