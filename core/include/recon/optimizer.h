#pragma once
/// Adam, as the trainer uses it: the LibTorch implementation or a fused, numerically equivalent one.
#include "recon/decoder.h"

#include <ATen/Tensor.h>

#include <memory>
#include <vector>

namespace recon {

/// A parameter whose gradient may arrive factored (see FactoredGradient) instead of in grad().
struct FactoredParameter {
  at::Tensor weight;
  std::shared_ptr<FactoredGradient> gradient;
};

/// Adam with PRISM's settings (β = (0.9, 0.999), ε = 1e-8, no weight decay, no AMSGrad).
class StepOptimizer {
 public:
  virtual ~StepOptimizer() = default;
  /// Clears the gradients before the next backward pass.
  virtual void zero_grad() = 0;
  /// One Adam update of every parameter that has a gradient.
  virtual void step() = 0;
  virtual void set_learning_rate(double lr) = 0;
  virtual double learning_rate() const = 0;
};

/// torch::optim::Adam (per-tensor kernels; gradients zeroed in place, as LibTorch 1.13 does by default). Factored
/// gradients are made dense before each step.
std::unique_ptr<StepOptimizer> make_torch_adam(std::vector<at::Tensor> parameters, double lr,
                                               std::vector<FactoredParameter> factored = {});

/// The same update rule as one loop per parameter (m, v, bias corrections and the division in that order, so
/// the result agrees with torch's to float32 rounding); gradients are released rather than zeroed. A factored
/// rank-one gradient is consumed as is: each element's gradient is formed in the loop, never stored.
std::unique_ptr<StepOptimizer> make_fused_adam(std::vector<at::Tensor> parameters, double lr,
                                               std::vector<FactoredParameter> factored = {});

}  // namespace recon
