#include "staged_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace recon::cli {

void require_replaceable(const std::string& path) {
  struct stat s {};
  if (stat(path.c_str(), &s) != 0) return;  // absent (or a dangling link, whose target the rename does not touch)
  if (!S_ISREG(s.st_mode)) throw std::runtime_error("cannot write '" + path + "': it exists and is not a regular file");
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
  if (fd < 0) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
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
  const mode_t mask = umask(0);
  umask(mask);
  if (error == 0 && fchmod(fd, 0666 & ~mask) != 0) error = errno;  // mkstemp's 0600 is for the staging only
  if (error == 0 && fsync(fd) != 0) error = errno;                 // a full disk may only show here
  if (close(fd) != 0 && error == 0) error = errno;
  if (error != 0) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(error));
}

void StagedFiles::commit() {
  while (!staged_.empty()) {
    const auto f = staged_.front();
    if (std::rename(f.temporary.c_str(), f.target.c_str()) != 0) {
      throw std::runtime_error("cannot replace '" + f.target + "': " + std::strerror(errno));
    }
    staged_.erase(staged_.begin());
  }
}

}  // namespace recon::cli
