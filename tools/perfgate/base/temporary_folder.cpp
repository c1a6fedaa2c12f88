#include "base/temporary_folder.h"

#include "base/error.h"

#include <stdlib.h>

#include <vector>

namespace perfgate {

TemporaryFolder::TemporaryFolder(const std::string& purpose) {
  std::error_code error;
  const auto base = std::filesystem::temp_directory_path(error);
  const std::string pattern =
      ((error ? std::filesystem::path("/tmp") : base) / ("perfgate-" + purpose + "-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (mkdtemp(name.data()) == nullptr) throw InputError("cannot create a temporary folder like '" + pattern + "'");
  path_ = name.data();
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace perfgate
