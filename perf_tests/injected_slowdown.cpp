#include "injected_slowdown.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace perf {

double injected_slowdown_fraction() {
  static const double fraction = [] {
    const char* text = std::getenv("PERFGATE_INJECT_SLOWDOWN");
    if (text == nullptr) return 0.0;
    char* end = nullptr;
    const double f = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(f >= 0.0 && f <= 10.0)) {
      std::fprintf(stderr, "PERFGATE_INJECT_SLOWDOWN='%s' is not a fraction in [0, 10]\n", text);
      std::exit(2);
    }
    std::fprintf(stderr, "injecting a %.0f %% slowdown into every optimized training step (test build)\n", 100.0 * f);
    return f;
  }();
  return fraction;
}

void spin_after_step(std::chrono::steady_clock::time_point step_start, double fraction) {
  if (fraction <= 0.0) return;
  const auto now = std::chrono::steady_clock::now();
  const auto until = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>((now - step_start) * fraction);
  while (std::chrono::steady_clock::now() < until) {
  }
}

}  // namespace perf
