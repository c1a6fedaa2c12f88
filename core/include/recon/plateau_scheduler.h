#pragma once
/// PRISM's learning-rate schedule of the initialisation phase: PyTorch's ReduceLROnPlateau with mode min, factor 0.5,
/// patience 10, a relative threshold of 1e-4, no cooldown, stepped once per 100 initialisation steps.
#include "recon/optimizer.h"

#include <cstdint>
#include <limits>

namespace recon {

class PlateauScheduler {
 public:
  /// Records `loss`. A loss below the best so far by more than 1e-4 of it resets the count of bad calls; the 11th bad
  /// call in a row halves the optimizer's learning rate and starts the count again (as PyTorch does after a reduction).
  void step(double loss, StepOptimizer& optimizer) {
    if (loss < best_ * (1.0 - 1e-4)) {
      best_ = loss;
      bad_ = 0;
    } else if (++bad_ > 10) {
      optimizer.set_learning_rate(optimizer.learning_rate() * 0.5);
      bad_ = 0;
    }
  }

 private:
  double best_ = std::numeric_limits<double>::infinity();
  int64_t bad_ = 0;
};

}  // namespace recon
