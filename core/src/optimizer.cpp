#include "recon/optimizer.h"

#include <ATen/ATen.h>
#include <torch/optim/adam.h>

#include <cmath>

namespace recon {
namespace {

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;

class TorchAdam final : public StepOptimizer {
 public:
  TorchAdam(std::vector<at::Tensor> params, double lr)
      : adam_(std::move(params), torch::optim::AdamOptions(lr).betas({kBeta1, kBeta2}).eps(kEpsilon)) {}
  void zero_grad() override { adam_.zero_grad(); }
  void step() override { adam_.step(); }
  void set_learning_rate(double lr) override {
    for (auto& group : adam_.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
  }
  double learning_rate() const override {
    return static_cast<const torch::optim::AdamOptions&>(adam_.param_groups().front().options()).lr();
  }

 private:
  torch::optim::Adam adam_;
};

class FusedAdam final : public StepOptimizer {
 public:
  FusedAdam(std::vector<at::Tensor> params, double lr) : params_(std::move(params)), lr_(lr) {
    for (const auto& p : params_) {
      exp_avg_.push_back(at::zeros_like(p));
      exp_avg_sq_.push_back(at::zeros_like(p));
    }
  }
  void zero_grad() override {
    for (auto& p : params_) p.mutable_grad() = at::Tensor();
  }
  void step() override {
    ++step_;
    const float b1 = static_cast<float>(kBeta1), b2 = static_cast<float>(kBeta2);
    const float one_minus_b1 = static_cast<float>(1.0 - kBeta1), one_minus_b2 = static_cast<float>(1.0 - kBeta2);
    const double bias1 = 1.0 - std::pow(kBeta1, static_cast<double>(step_));
    const double bias2 = 1.0 - std::pow(kBeta2, static_cast<double>(step_));
    const float step_size = static_cast<float>(lr_ / bias1);
    const float bias2_sqrt = static_cast<float>(std::sqrt(bias2));
    const float eps = static_cast<float>(kEpsilon);
    for (size_t i = 0; i < params_.size(); ++i) {
      const auto& grad = params_[i].grad();
      if (!grad.defined()) continue;
      auto g_contig = grad.contiguous();
      const float* g = g_contig.data_ptr<float>();
      float* p = params_[i].data_ptr<float>();
      float* m = exp_avg_[i].data_ptr<float>();
      float* v = exp_avg_sq_[i].data_ptr<float>();
      const int64_t count = params_[i].numel();
      // Same operation order as torch.optim.Adam (1.13, single-tensor path).
      for (int64_t k = 0; k < count; ++k) {
        m[k] = m[k] * b1 + one_minus_b1 * g[k];
        v[k] = v[k] * b2 + one_minus_b2 * g[k] * g[k];
        const float denom = std::sqrt(v[k]) / bias2_sqrt + eps;
        p[k] = p[k] - step_size * (m[k] / denom);
      }
    }
  }
  void set_learning_rate(double lr) override { lr_ = lr; }
  double learning_rate() const override { return lr_; }

 private:
  std::vector<at::Tensor> params_, exp_avg_, exp_avg_sq_;
  double lr_;
  int64_t step_ = 0;
};

}  // namespace

std::unique_ptr<StepOptimizer> make_torch_adam(std::vector<at::Tensor> parameters, double lr) {
  return std::make_unique<TorchAdam>(std::move(parameters), lr);
}

std::unique_ptr<StepOptimizer> make_fused_adam(std::vector<at::Tensor> parameters, double lr) {
  return std::make_unique<FusedAdam>(std::move(parameters), lr);
}

}  // namespace recon
