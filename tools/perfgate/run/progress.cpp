#include "run/progress.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace perfgate {

Progress::Progress() : active_(isatty(STDERR_FILENO) == 1 && std::getenv("CI") == nullptr) {}

Progress::~Progress() {
  if (shown_) std::cerr << "\r\033[K" << std::flush;
}

void Progress::update(const std::string& message) {
  if (!active_) return;
  std::cerr << "\r\033[K" << message << std::flush;
  shown_ = true;
}

}  // namespace perfgate
