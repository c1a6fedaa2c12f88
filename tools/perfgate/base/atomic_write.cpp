#include "base/atomic_write.h"

#include "base/error.h"

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
      return S_ISDIR(git_stat.st_mode) && git_stat.st_dev == target_stat.st_dev && access(git.c_str(), W_OK) == 0
                 ? git.string()
                 : "";
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
  if (lstat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) return existing.st_mode & 07777;
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

std::string nearest_existing_folder(const std::string& path) {
  std::error_code ignored;
  auto folder = fs::path(path).parent_path();
  while (!folder.empty() && !fs::is_directory(folder, ignored)) folder = folder.parent_path();
  return folder.empty() ? std::string(".") : folder.string();
}

std::string write_target_of(const std::string& path) {
  std::error_code error;
  if (!fs::is_symlink(fs::symlink_status(path, error))) return path;
  // The file the kernel opens through the link: resolved by the file system (a relative link inside a linked folder
  // is relative to where that folder really is), so that what is read and what is written are one file.
  const auto target = fs::canonical(path, error);
  if (error) {
    throw InputError("'" + path + "' is a symbolic link that leads to no file (" + error.message() +
                     "); perfgate does not create files through links");
  }
  return target.string();
}

void require_replaceable(const std::string& path) {
  const fs::path target = write_target_of(path);
  struct stat existing {};
  if (lstat(target.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    throw InputError("'" + path + "' exists and is not a regular file; perfgate only replaces files");
  }
}

void write_file_atomically(const std::string& path, const std::string& content, AtLink at_link) {
  std::error_code link_error;
  const bool replace_link = at_link == AtLink::replace && fs::is_symlink(fs::symlink_status(path, link_error));
  if (!replace_link) require_replaceable(path);
  // A link replaced is renamed over as a name: rename() replaces the link itself, never the file it points to.
  const fs::path target = replace_link ? fs::path(path) : fs::path(write_target_of(path));
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

void require_not_an_input(const std::string& output, const std::string& what, const std::vector<std::string>& inputs) {
  struct stat written {};
  if (stat(write_target_of(output).c_str(), &written) != 0) return;  // a new file is no input
  for (const auto& input : inputs) {
    struct stat read {};
    if (!input.empty() && stat(input.c_str(), &read) == 0 && read.st_dev == written.st_dev &&
        read.st_ino == written.st_ino) {
      throw InputError(what + " '" + output + "' is the input '" + input + "': give the output another file");
    }
  }
}

}  // namespace perfgate
