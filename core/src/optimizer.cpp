#include "recon/optimizer.h"

#include "cpu_dispatch.h"
#include "own_cuda_kernels.h"
#include "parallel_blocks.h"

#include <ATen/ATen.h>
#include <torch/optim/adam.h>

#include <cmath>

namespace recon {
namespace {

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;

void clear(std::vector<FactoredParameter>& factored) {
  for (auto& f : factored) f.gradient->terms.clear();
}

class TorchAdam final : public StepOptimizer {
 public:
  TorchAdam(std::vector<at::Tensor> params, double lr, std::vector<FactoredParameter> factored)
      : adam_(std::move(params), torch::optim::AdamOptions(lr).betas({kBeta1, kBeta2}).eps(kEpsilon)),
        factored_(std::move(factored)) {}
  void zero_grad() override {
    adam_.zero_grad();
    clear(factored_);
  }
  void step() override {
    for (auto& f : factored_) f.gradient->move_into(f.weight);
    adam_.step();
  }
  void set_learning_rate(double lr) override {
    for (auto& group : adam_.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
  }
  double learning_rate() const override {
    return static_cast<const torch::optim::AdamOptions&>(adam_.param_groups().front().options()).lr();
  }

 private:
  torch::optim::Adam adam_;
  std::vector<FactoredParameter> factored_;
};

// One Adam update of n elements, the gradient of element k given by grad(k). Same operation order as
// torch.optim.Adam (1.13, single-tensor path). Each element's update reads and writes that element only, so a split of
// the elements among threads gives the same bits.
constexpr int64_t kMultiplyAddsPerElement = 8;  // an element's update, counted as the threads' work unit
struct AdamConstants {
  float b1, b2, one_minus_b1, one_minus_b2, step_size, bias2_sqrt, eps;
};

template <typename Gradient>
inline void adam_update(const AdamConstants& c, int64_t n, float* p, float* m, float* v, Gradient grad) {
  for (int64_t k = 0; k < n; ++k) {
    const float g = grad(k);
    m[k] = m[k] * c.b1 + c.one_minus_b1 * g;
    v[k] = v[k] * c.b2 + c.one_minus_b2 * g * g;
    const float denom = std::sqrt(v[k]) / c.bias2_sqrt + c.eps;
    p[k] = p[k] - c.step_size * (m[k] / denom);
  }
}

// The two gradient forms the fused Adam meets, as vector kernels: a dense gradient, and a rank-one gradient whose
// row r is left[r] · right (the product at::outer forms), over a [rows, cols] parameter.
RECON_VECTOR_KERNEL void adam_update_dense(const AdamConstants& c, int64_t n, float* p, float* m, float* v, const float* g) {
  adam_update(c, n, p, m, v, [g](int64_t k) { return g[k]; });
}
RECON_VECTOR_KERNEL void adam_update_rank_one(const AdamConstants& c, int64_t rows, int64_t cols, float* p, float* m,
                                              float* v, const float* left, const float* right) {
  for (int64_t row = 0; row < rows; ++row) {
    const float l = left[row];
    const int64_t at = row * cols;
    adam_update(c, cols, p + at, m + at, v + at, [l, right](int64_t k) { return l * right[k]; });
  }
}

class FusedAdam final : public StepOptimizer {
 public:
  FusedAdam(std::vector<at::Tensor> params, double lr, std::vector<FactoredParameter> factored)
      : params_(std::move(params)), lr_(lr) {
    for (const auto& p : params_) {
      exp_avg_.push_back(at::zeros_like(p));
      exp_avg_sq_.push_back(at::zeros_like(p));
      factored_.emplace_back();
      for (const auto& f : factored)
        if (f.weight.unsafeGetTensorImpl() == p.unsafeGetTensorImpl()) factored_.back() = f;
    }
  }
  void zero_grad() override {
    for (auto& p : params_) p.mutable_grad() = at::Tensor();
    for (auto& f : factored_)
      if (f.gradient) f.gradient->terms.clear();
  }
  void step() override {
    ++step_;
    const double bias1 = 1.0 - std::pow(kBeta1, static_cast<double>(step_));
    const double bias2 = 1.0 - std::pow(kBeta2, static_cast<double>(step_));
    const AdamConstants c{static_cast<float>(kBeta1),        static_cast<float>(kBeta2),
                          static_cast<float>(1.0 - kBeta1),  static_cast<float>(1.0 - kBeta2),
                          static_cast<float>(lr_ / bias1),   static_cast<float>(std::sqrt(bias2)),
                          static_cast<float>(kEpsilon)};
    // On a CUDA device the same passes run as the core's own kernels (core/cuda/pipeline_kernels.h).
    const cuda::AdamConstants on_device{c.b1, c.b2, c.one_minus_b1, c.one_minus_b2, c.step_size, c.bias2_sqrt, c.eps};
    for (size_t i = 0; i < params_.size(); ++i) {
      const bool device = params_[i].is_cuda();
      TORCH_CHECK(device || params_[i].is_cpu(), "fused Adam: runs on the CPU or a CUDA device, not on ", params_[i].device());
      float* p = params_[i].data_ptr<float>();
      float* m = exp_avg_[i].data_ptr<float>();
      float* v = exp_avg_sq_[i].data_ptr<float>();
      auto& f = factored_[i];
      if (f.gradient && f.gradient->terms.size() == 1 && !params_[i].grad().defined()) {
        const auto& [left, right] = f.gradient->terms.front();
        const auto l = left.contiguous(), r = right.contiguous();
        if (device) {
          cuda::adam_rank_one(on_device, l.numel(), r.numel(), p, m, v, l.data_ptr<float>(), r.data_ptr<float>());
        } else {
          // Rows, each its own elements.
          const int64_t rows = l.numel(), cols = r.numel();
          const float *l_data = l.data_ptr<float>(), *r_data = r.data_ptr<float>();
          detail::for_blocks(rows, detail::grain_for(kMultiplyAddsPerElement * cols), [&](int64_t r0, int64_t r1) {
            adam_update_rank_one(c, r1 - r0, cols, p + r0 * cols, m + r0 * cols, v + r0 * cols, l_data + r0, r_data);
          });
        }
        continue;
      }
      if (f.gradient) f.gradient->move_into(params_[i]);  // several terms, or a dense part too: add them up
      const auto& grad = params_[i].grad();
      if (!grad.defined()) continue;
      const auto g = grad.contiguous();
      if (device) {
        cuda::adam_dense(on_device, params_[i].numel(), p, m, v, g.data_ptr<float>());
      } else {
        // Elements, each its own update.
        const float* gradient = g.data_ptr<float>();
        detail::for_blocks(params_[i].numel(), detail::grain_for(kMultiplyAddsPerElement), [&](int64_t k0, int64_t k1) {
          adam_update_dense(c, k1 - k0, p + k0, m + k0, v + k0, gradient + k0);
        });
      }
    }
  }
  void set_learning_rate(double lr) override { lr_ = lr; }
  double learning_rate() const override { return lr_; }

 private:
  std::vector<at::Tensor> params_, exp_avg_, exp_avg_sq_;
  std::vector<FactoredParameter> factored_;  // per parameter; gradient null unless factored
  double lr_;
  int64_t step_ = 0;
};

}  // namespace

std::unique_ptr<StepOptimizer> make_torch_adam(std::vector<at::Tensor> parameters, double lr,
                                               std::vector<FactoredParameter> factored) {
  return std::make_unique<TorchAdam>(std::move(parameters), lr, std::move(factored));
}

std::unique_ptr<StepOptimizer> make_fused_adam(std::vector<at::Tensor> parameters, double lr,
                                               std::vector<FactoredParameter> factored) {
  return std::make_unique<FusedAdam>(std::move(parameters), lr, std::move(factored));
}

}  // namespace recon
