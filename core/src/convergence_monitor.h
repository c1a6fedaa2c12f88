#pragma once
// PRISM's ConvergenceMonitor, reduced to what decides a stop: threshold convergence and the plateau rule.
#include <cstdint>
#include <deque>
#include <limits>

namespace recon::detail {

/// Fed the total loss every step. should_stop() is true when the last min(10, n) losses are all below the
/// threshold, or when the loss has plateaued (< 1 % relative fall over a window of 50 with ≥ 10 steps since the
/// best) after PRISM's escalation tiers were exhausted: plateau seen at ≥ 200 steps, then more than twice again.
class ConvergenceMonitor {
 public:
  explicit ConvergenceMonitor(double threshold) : threshold_(threshold) {}

  void update(double loss) {
    history_.push_back(loss);
    if (history_.size() > kHistory) history_.pop_front();
    ++count_;
    if (loss < best_ * (1.0 - kImprovement)) {
      best_ = loss;
      since_improvement_ = 0;
    } else {
      ++since_improvement_;
    }
    if (converged()) return;
    if (plateau()) {
      ++plateau_count_;
      if (!escalated_ && count_ >= kEscalationSteps) {
        escalated_ = true;
      } else if (escalated_ && plateau_count_ > 2) {
        rescue_ = true;
      }
    }
  }

  bool should_stop() const { return converged() || (rescue_ && plateau()); }

 private:
  static constexpr size_t kHistory = 1000, kWindow = 50, kRecent = 10;
  static constexpr int64_t kPatience = 10, kEscalationSteps = 200;
  static constexpr double kImprovement = 0.01, kPlateauFall = 0.01;

  bool converged() const {
    if (history_.empty() || history_.back() >= threshold_) return false;
    const size_t n = std::min(kRecent, history_.size());
    for (size_t i = history_.size() - n; i < history_.size(); ++i) {
      if (history_[i] >= threshold_) return false;
    }
    return true;
  }
  bool plateau() const {
    if (history_.size() < kWindow || since_improvement_ < kPatience) return false;
    const double first = history_[history_.size() - kWindow], last = history_.back();
    return first != 0.0 && (first - last) / std::abs(first) < kPlateauFall;
  }

  double threshold_;
  std::deque<double> history_;
  int64_t count_ = 0, since_improvement_ = 0, plateau_count_ = 0;
  double best_ = std::numeric_limits<double>::infinity();
  bool escalated_ = false, rescue_ = false;
};

}  // namespace recon::detail
