#include "atomic_write.h"

#include "error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// The repository's .git folder above `folder` on the same device, or "" (no repository, a worktree's .git
// file, another file system: the staged file then goes beside the target).
std::string git_folder_above(const fs::path& folder) {
  struct stat target_stat {};
  if (stat(folder.c_str(), &target_stat) != 0) return "";
  std::error_code ignored;
  for (fs::path at = fs::absolute(folder, ignored); !at.empty(); at = at.parent_path()) {
    const fs::path git = at / ".git";
    struct stat git_stat {};
    if (lstat(git.c_str(), &git_stat) == 0) {
      return S_ISDIR(git_stat.st_mode) && git_stat.st_dev == target_stat.st_dev && access(git.c_str(), W_OK) == 0 ? git.string() : "";
    }
    if (at == at.root_path()) break;
  }
  return "";
}

// A new empty file for the content, 0600 until it is complete; returns its descriptor and sets `name`.
int create_staged_file(const fs::path& target, std::string& name) {
  const auto folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::vector<std::string> patterns;
  const std::string git = git_folder_above(folder);
  if (!git.empty()) patterns.push_back(git + "/perfgate-" + target.filename().string() + ".XXXXXX");
  patterns.push_back((folder / ("." + target.filename().string() + ".perfgate-XXXXXX")).string());
  for (const auto& pattern : patterns) {
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const int fd = mkstemp(buffer.data());
    if (fd >= 0) {
      name = buffer.data();
      return fd;
    }
  }
  return -1;
}

mode_t mode_for(const fs::path& target) {
  struct stat existing {};
  if (stat(target.c_str(), &existing) == 0) return existing.st_mode & 07777;
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

std::string write_target_of(const std::string& path) {
  // Follow the chain of links one by one (a link may dangle: its target is then created, the link kept).
  fs::path at = path;
  std::error_code error;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(at, error)); ++hops) {
    const auto next = fs::read_symlink(at, error);
    if (error) break;
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  if (fs::is_symlink(fs::symlink_status(at, error))) throw InputError("'" + path + "': too many levels of symbolic links");
  return at.lexically_normal().string();
}

void require_replaceable(const std::string& path) {
  const fs::path target = write_target_of(path);
  struct stat existing {};
  if (lstat(target.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    throw InputError("'" + path + "' exists and is not a regular file; perfgate only replaces files");
  }
}

void write_file_atomically(const std::string& path, const std::string& content) {
  require_replaceable(path);
  const fs::path target = write_target_of(path);
  std::string staged;
  const int fd = create_staged_file(target, staged);
  if (fd < 0) throw InputError("cannot create a file to write '" + path + "' (is its folder writable?)");
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
  if (error == 0 && fchmod(fd, mode_for(target)) != 0) error = errno;
  if (error == 0 && fsync(fd) != 0) error = errno;  // a full disk may only show here
  if (close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(staged.c_str(), target.c_str()) != 0) error = errno;
  if (error != 0) {
    std::remove(staged.c_str());
    throw InputError("cannot write '" + path + "': " + std::strerror(error));
  }
}

}  // namespace perfgate
