#pragma once
// Progress of long runs: a line that rewrites itself on a terminal; nothing in CI logs or when piped.
#include <string>

namespace perfgate {

class Progress {
 public:
  /// Shown only when standard error is a terminal and the CI environment variable is unset.
  Progress();
  ~Progress();
  void update(const std::string& message);  ///< replaces the current line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  bool active_ = false;
  bool shown_ = false;
};

}  // namespace perfgate
