#pragma once
/// A sample's stop that reads the measurements only: the sample ends once the fit of its own measurement has stopped
/// improving. Plain C++ without LibTorch, so that the rule is tested on loss sequences with known answers.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>

namespace recon {

/// Example: FitPlateauOptions{10, 0.01} — a sample ends once its best fit fell by less than 1 % over 10 updates.
/// window = 0: off, every sample runs its budget.
struct FitPlateauOptions {
  int64_t window = 0;     ///< updates over which the fall is measured (>= 0)
  double min_fall = 0.0;  ///< the smallest relative fall of the best loss that keeps the sample going, in (0, 1]
  bool enabled() const { return window > 0; }
};

/// Fed the loss of the sample's own measurement at every evaluation (before each update). should_stop() is true at
/// evaluation t >= window when the lowest loss of evaluations 0..t is not below (1 - min_fall) times the lowest of
/// evaluations 0..t-window: the best fit fell by less than min_fall over the last window updates. The best so far,
/// not the last value, so that one noisy step neither stops a sample nor keeps it going. A NaN loss counts as no
/// improvement (a window without a finite loss stops the sample). Never true when the options are off.
class FitPlateau {
 public:
  explicit FitPlateau(FitPlateauOptions options) : options_(options) {}

  void update(double loss) {
    if (!options_.enabled()) return;
    if (loss < best_) best_ = loss;  // false for a NaN
    best_history_.push_back(best_);
    if (best_history_.size() > static_cast<size_t>(options_.window) + 1) best_history_.pop_front();
  }

  bool should_stop() const {
    if (!options_.enabled() || best_history_.size() <= static_cast<size_t>(options_.window)) return false;
    const double before = best_history_.front(), now = best_history_.back();
    return !(now < (1.0 - options_.min_fall) * before);
  }

 private:
  FitPlateauOptions options_;
  double best_ = std::numeric_limits<double>::infinity();
  std::deque<double> best_history_;  // the best so far after each of the last window + 1 evaluations
};

}  // namespace recon
