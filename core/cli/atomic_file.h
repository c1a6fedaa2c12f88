#pragma once
// Writes a file so that readers see either the old content or the complete new one, never a partial file.
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>

namespace recon::cli {

/// Calls `write(temporary_path)` for a temporary file beside `path`, then renames it over `path`. On any
/// exception the temporary file is removed and the exception propagates; `path` is untouched.
inline void write_atomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  const std::string temporary = path + ".tmp-" + std::to_string(std::random_device{}());
  try {
    write(temporary);
    std::filesystem::rename(temporary, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
}

}  // namespace recon::cli
