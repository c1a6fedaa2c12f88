#include "batch_norm_relu.h"

#include "cpu_dispatch.h"
#include "parallel_blocks.h"
#include "lane_sum.h"
#include "own_cuda_kernels.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cmath>

namespace recon::detail {
namespace {

// Per channel of `n` values, for the channels [c_begin, c_end): mean and biased variance (two passes), then
// y = max(0, (x − mean) · invstd · γ + β).
RECON_VECTOR_KERNEL void forward_kernel(const float* x, float* y, int64_t c_begin, int64_t c_end, int64_t n, const float* gamma,
                                        const float* beta, double eps, double* mean, double* variance, float* invstd) {
  for (int64_t c = c_begin; c < c_end; ++c) {
    const float* xc = x + c * n;
    const double m = lane_sum(n, [xc](int64_t i) { return xc[i]; }) / static_cast<double>(n);
    const float mf = static_cast<float>(m);
    const double var = lane_sum(n, [xc, mf](int64_t i) {
                         const float d = xc[i] - mf;
                         return d * d;
                       }) / static_cast<double>(n);
    mean[c] = m;
    variance[c] = var;
    const float is = static_cast<float>(1.0 / std::sqrt(var + eps));
    invstd[c] = is;
    const float scale = is * gamma[c], shift = beta[c] - mf * scale;
    float* yc = y + c * n;
    for (int64_t i = 0; i < n; ++i) {
      const float v = xc[i] * scale + shift;
      yc[i] = v > 0.0f ? v : 0.0f;
    }
  }
}

// g = gy where y > 0 (the ReLU), x̂ = (x − mean) · invstd; per channel gβ = Σ g, gγ = Σ g x̂ and
// gx = γ · invstd · (g − gβ/n − x̂ · gγ/n) (BatchNorm's training-mode backward, the batch statistics differentiated),
// for the channels [c_begin, c_end).
RECON_VECTOR_KERNEL void backward_kernel(const float* x, const float* y, const float* gy, int64_t c_begin, int64_t c_end,
                                         int64_t n, const float* gamma, const double* mean, const float* invstd, float* gx,
                                         float* ggamma, float* gbeta) {
  for (int64_t c = c_begin; c < c_end; ++c) {
    const float* xc = x + c * n;
    const float* yc = y + c * n;
    const float* gc = gy + c * n;
    const float mf = static_cast<float>(mean[c]), is = invstd[c];
    auto g = [yc, gc](int64_t i) { return yc[i] > 0.0f ? gc[i] : 0.0f; };
    const double sum_g = lane_sum(n, g);
    const double sum_g_xhat = lane_sum(n, [&](int64_t i) { return g(i) * ((xc[i] - mf) * is); });
    gbeta[c] = static_cast<float>(sum_g);
    ggamma[c] = static_cast<float>(sum_g_xhat);
    if (gx == nullptr) continue;
    const float mean_g = static_cast<float>(sum_g / static_cast<double>(n));
    const float mean_g_xhat = static_cast<float>(sum_g_xhat / static_cast<double>(n));
    const float scale = gamma[c] * is;
    float* out = gx + c * n;
    for (int64_t i = 0; i < n; ++i) out[i] = scale * (g(i) - mean_g - (xc[i] - mf) * is * mean_g_xhat);
  }
}

// What BatchNorm2dImpl::forward does to the running statistics in training mode: the batch count, and an exponential
// (or, without momentum, cumulative) average with the unbiased variance. Plain loops over C values: as tensor
// operations these were ~10 dispatched calls per layer.
void update_running_statistics(torch::nn::BatchNorm2dImpl& norm, const double* mean, const double* variance, int64_t n) {
  if (!norm.options.track_running_stats()) return;
  double factor = norm.options.momentum().value_or(0.0);
  if (norm.num_batches_tracked.defined()) {
    int64_t& batches = *norm.num_batches_tracked.data_ptr<int64_t>();
    ++batches;
    if (!norm.options.momentum()) factor = 1.0 / static_cast<double>(batches);
  }
  const float keep = static_cast<float>(1.0 - factor), take = static_cast<float>(factor);
  const double bessel = static_cast<double>(n) / static_cast<double>(n - 1);
  float* running_mean = norm.running_mean.data_ptr<float>();
  float* running_var = norm.running_var.data_ptr<float>();
  for (int64_t c = 0; c < norm.running_mean.numel(); ++c) {
    running_mean[c] = running_mean[c] * keep + static_cast<float>(mean[c]) * take;
    running_var[c] = running_var[c] * keep + static_cast<float>(variance[c] * bessel) * take;
  }
}

// The same on a CUDA device, where the statistics and the running buffers live: one kernel, no read-back.
void update_running_statistics_on_device(torch::nn::BatchNorm2dImpl& norm, const at::Tensor& stats, int64_t n) {
  if (!norm.options.track_running_stats()) return;
  const int64_t channels = stats.size(1);
  const double momentum = norm.options.momentum() ? *norm.options.momentum() : -1.0;  // < 0: cumulative
  int64_t* batches = norm.num_batches_tracked.defined() ? norm.num_batches_tracked.data_ptr<int64_t>() : nullptr;
  cuda::batch_norm_update_running(channels, n, stats.data_ptr<double>(), stats.data_ptr<double>() + channels,
                                  norm.running_mean.data_ptr<float>(), norm.running_var.data_ptr<float>(), batches, momentum);
}

struct BatchNormRelu : torch::autograd::Function<BatchNormRelu> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, const at::Tensor& weight,
                            const at::Tensor& bias, torch::nn::BatchNorm2dImpl* norm) {
    TORCH_CHECK(x.dim() == 4 && x.size(0) == 1 && x.scalar_type() == at::kFloat && weight.numel() == x.size(1) &&
                    bias.numel() == x.size(1),
                "batch_norm_relu: expects x [1, C, H, W] float32 and C affine parameters");
    TORCH_CHECK(x.is_cpu() || x.is_cuda(), "batch_norm_relu: runs on the CPU or a CUDA device, not on ", x.device());
    const int64_t channels = x.size(1), n = x.size(2) * x.size(3);
    auto xc = x.detach().contiguous();
    auto gamma = weight.detach().contiguous(), beta = bias.detach().contiguous();
    auto y = at::empty_like(xc);
    auto stats = at::empty({2, channels}, xc.options().dtype(at::kDouble));  // mean, biased variance
    auto invstd = at::empty({channels}, xc.options());
    if (xc.is_cuda()) {
      cuda::batch_norm_relu_forward(channels, n, xc.data_ptr<float>(), gamma.data_ptr<float>(), beta.data_ptr<float>(),
                                    norm->options.eps(), y.data_ptr<float>(), stats.data_ptr<double>(),
                                    stats.data_ptr<double>() + channels, invstd.data_ptr<float>());
      update_running_statistics_on_device(*norm, stats, n);
    } else {
      // Channels, each its own statistics and outputs.
      const float *x_data = xc.data_ptr<float>(), *gamma_data = gamma.data_ptr<float>(), *beta_data = beta.data_ptr<float>();
      float *y_data = y.data_ptr<float>(), *invstd_data = invstd.data_ptr<float>();
      double* stats_data = stats.data_ptr<double>();
      const double eps = norm->options.eps();
      for_blocks(channels, grain_for(3 * n), [&](int64_t c0, int64_t c1) {
        forward_kernel(x_data, y_data, c0, c1, n, gamma_data, beta_data, eps, stats_data, stats_data + channels, invstd_data);
      });
      update_running_statistics(*norm, stats.data_ptr<double>(), stats.data_ptr<double>() + channels, n);
    }
    ctx->saved_data["x"] = xc;
    ctx->saved_data["y"] = y.detach();  // y itself becomes this node's output: holding it would be a reference cycle
    ctx->saved_data["gamma"] = gamma;
    ctx->saved_data["stats"] = stats;
    ctx->saved_data["invstd"] = invstd;
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto x = ctx->saved_data["x"].toTensor(), y = ctx->saved_data["y"].toTensor();
    const auto gamma = ctx->saved_data["gamma"].toTensor(), stats = ctx->saved_data["stats"].toTensor();
    const auto invstd = ctx->saved_data["invstd"].toTensor();
    const auto gy = grads[0].contiguous();
    const int64_t channels = x.size(1), n = x.size(2) * x.size(3);
    auto gx = ctx->needs_input_grad(0) ? at::empty_like(x) : at::Tensor();
    auto ggamma = at::empty_like(gamma), gbeta = at::empty_like(gamma);
    float* gx_data = gx.defined() ? gx.data_ptr<float>() : nullptr;
    if (x.is_cuda()) {
      cuda::batch_norm_relu_backward(channels, n, x.data_ptr<float>(), y.data_ptr<float>(), gy.data_ptr<float>(),
                                     gamma.data_ptr<float>(), stats.data_ptr<double>(), invstd.data_ptr<float>(), gx_data,
                                     ggamma.data_ptr<float>(), gbeta.data_ptr<float>());
    } else {
      // Channels, each its own sums and outputs.
      const float *x_data = x.data_ptr<float>(), *y_data = y.data_ptr<float>(), *gy_data = gy.data_ptr<float>();
      const float *gamma_data = gamma.data_ptr<float>(), *invstd_data = invstd.data_ptr<float>();
      const double* mean = stats.data_ptr<double>();
      float *ggamma_data = ggamma.data_ptr<float>(), *gbeta_data = gbeta.data_ptr<float>();
      for_blocks(channels, grain_for(3 * n), [&](int64_t c0, int64_t c1) {
        backward_kernel(x_data, y_data, gy_data, c0, c1, n, gamma_data, mean, invstd_data, gx_data, ggamma_data, gbeta_data);
      });
    }
    return {gx, ggamma, gbeta, torch::autograd::Variable()};
  }
};

}  // namespace

at::Tensor batch_norm_relu(const at::Tensor& x, torch::nn::BatchNorm2dImpl& norm) {
  TORCH_CHECK(norm.is_training() && norm.options.affine(), "batch_norm_relu: needs an affine BatchNorm2d in training mode");
  return BatchNormRelu::apply(x, norm.weight, norm.bias, &norm);
}

}  // namespace recon::detail
