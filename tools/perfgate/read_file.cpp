#include "read_file.h"

#include "error.h"

#include <fstream>
#include <sstream>

namespace perfgate {

std::string read_whole_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (in) bytes << in.rdbuf();
  if (!in) throw InputError("cannot read " + what + " '" + path + "'");
  return bytes.str();
}

}  // namespace perfgate
