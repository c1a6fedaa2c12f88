#pragma once
// Writers of one folder take turns: an exclusive advisory lock (flock) on the folder itself, so no lock file is
// ever left behind, and a killed holder releases it with its last descriptor.
#include <string>

namespace perfgate {

class FolderLock {
 public:
  /// Waits up to `wait_seconds` for the lock on `folder`; throws InputError naming the folder when another
  /// process still holds it, or when the folder cannot be opened.
  FolderLock(const std::string& folder, double wait_seconds);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace perfgate
