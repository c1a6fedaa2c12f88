#include "base/read_file.h"

#include "base/error.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace perfgate {

std::string read_whole_file(const std::string& path, const std::string& what) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);  // follows symlinks: the file itself is judged
  if (error || !std::filesystem::exists(status))
    throw InputError("cannot read " + what + " '" + path + "': no such file");
  if (std::filesystem::is_directory(status))
    throw InputError("cannot read " + what + " '" + path + "': it is a folder");
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError("cannot read " + what + " '" + path +
                     "': not a regular file (a FIFO, socket or device is never read)");
  }
  const auto size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxInputBytes) {
    throw InputError("cannot read " + what + " '" + path + "': " + std::to_string(size >> 20) + " MiB, more than the " +
                     std::to_string(kMaxInputBytes >> 20) + " MiB perfgate reads");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (in) bytes << in.rdbuf();
  if (!in) throw InputError("cannot read " + what + " '" + path + "'");
  return bytes.str();
}

std::string read_file_tail(const std::string& path, std::uintmax_t bytes) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return "";
  const auto size = std::filesystem::file_size(path, error);
  if (error) return "";
  std::ifstream in(path, std::ios::binary);
  const std::uintmax_t start = size > bytes ? size - bytes : 0;
  in.seekg(static_cast<std::streamoff>(start));
  std::string text(static_cast<size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

}  // namespace perfgate
