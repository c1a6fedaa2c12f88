#pragma once
// A private scratch folder that is removed on every path out of its scope, errors included.
#include <filesystem>
#include <string>

namespace perfgate {

class TemporaryFolder {
 public:
  /// Creates a new folder <system temp>/perfgate-<purpose>-XXXXXX (mkdtemp: unique, mode 0700). Throws
  /// InputError when it cannot.
  explicit TemporaryFolder(const std::string& purpose);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace perfgate
