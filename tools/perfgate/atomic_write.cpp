#include "atomic_write.h"

#include "error.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

namespace perfgate {

void write_file_atomically(const std::string& path, const std::string& content) {
  std::string pattern = path + ".XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) throw InputError("cannot create a temporary file next to '" + path + "'");
  const std::string temporary(name.data());
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  const bool ok = written == content.size() && fsync(fd) == 0;
  close(fd);
  if (!ok || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw InputError("cannot write '" + path + "'");
  }
}

}  // namespace perfgate
