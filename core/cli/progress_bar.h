#pragma once
// A one-line progress bar on stderr for interactive terminals; silent in CI logs and pipes.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace recon::cli {

class ProgressBar {
 public:
  /// mode: "on", "off", or "auto" (on only when stderr is a terminal and CI is unset).
  explicit ProgressBar(const std::string& mode)
      : enabled_(mode == "on" || (mode == "auto" && isatty(fileno(stderr)) && std::getenv("CI") == nullptr)) {}
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// Redraws at most 10 times a second.
  void update(const std::string& label, int64_t done, int64_t total, double loss) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done != total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    constexpr int kWidth = 30;
    const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
    std::fprintf(stderr, "\r%-14s [%s%s] %5lld/%-5lld loss %.4g   ", label.c_str(), std::string(static_cast<size_t>(filled), '#').c_str(),
                 std::string(static_cast<size_t>(kWidth - filled), '.').c_str(), static_cast<long long>(done),
                 static_cast<long long>(total), loss);
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::fputc('\n', stderr);
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace recon::cli
