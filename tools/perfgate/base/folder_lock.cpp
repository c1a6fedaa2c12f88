#include "base/folder_lock.h"

#include "base/error.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace perfgate {

FolderLock::FolderLock(const std::string& folder, double wait_seconds) {
  fd_ = open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw InputError("cannot open the folder '" + folder + "' to lock it");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_seconds);
  while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if ((errno != EWOULDBLOCK && errno != EINTR) || std::chrono::steady_clock::now() >= deadline) {
      close(fd_);
      throw InputError("another perfgate process is writing in '" + folder + "' (its lock was not released within " +
                       std::to_string(static_cast<int>(wait_seconds)) + " s); nothing was written");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

FolderLock::~FolderLock() { close(fd_); }

}  // namespace perfgate
