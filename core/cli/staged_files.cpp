#include "staged_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace recon::cli {
namespace {

// The process's umask, read without changing it: umask(0) then umask(mask) would open a window in which LibTorch's
// threads create files with no mask. Linux reports it in /proc/self/status; 022 where it cannot be read.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  }
  return 022;
}

std::runtime_error write_error(const std::string& path, int error) {
  return std::runtime_error("cannot write '" + path + "': " + std::strerror(error));
}

}  // namespace

void require_replaceable(const std::string& path) {
  struct stat s {};
  // lstat: what the rename replaces is the entry itself, so a symbolic link is replaced (whatever it points to), as
  // a regular file is; a folder, a device, a FIFO or a socket is refused.
  if (lstat(path.c_str(), &s) != 0) return;
  if (!S_ISREG(s.st_mode) && !S_ISLNK(s.st_mode)) {
    throw std::runtime_error("cannot write '" + path + "': it exists and is neither a file nor a link");
  }
}

StagedFiles::~StagedFiles() {
  for (const auto& f : staged_) std::remove(f.temporary.c_str());
}

void StagedFiles::stage(const std::string& path, const std::string& content) {
  require_replaceable(path);
  const auto folder = std::filesystem::path(path).parent_path();
  std::string name = ((folder.empty() ? std::filesystem::path(".") : folder) /
                      ("." + std::filesystem::path(path).filename().string() + ".recon-XXXXXX"))
                         .string();
  const int fd = mkstemp(name.data());
  if (fd < 0) throw write_error(path, errno);
  staged_.push_back({name, path});
  size_t written = 0;
  int error = 0;
  while (written < content.size()) {
    const ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : ENOSPC;
      break;
    }
    written += static_cast<size_t>(n);
  }
  if (error == 0 && fchmod(fd, 0666 & ~current_umask()) != 0) error = errno;  // mkstemp's 0600 is for staging only
  if (error == 0 && fsync(fd) != 0) error = errno;                           // a full disk may only show here
  if (close(fd) != 0 && error == 0) error = errno;
  if (error != 0) throw write_error(path, error);
}

void StagedFiles::commit() {
  while (!staged_.empty()) {
    const auto f = staged_.front();
    if (std::rename(f.temporary.c_str(), f.target.c_str()) != 0) {
      const int error = errno;
      throw std::runtime_error("cannot replace '" + f.target + "': " + std::strerror(error));
    }
    staged_.erase(staged_.begin());
  }
}

}  // namespace recon::cli
