#include "recon/decoder.h"

#include "autograd_keep_alive.h"
#include "batch_norm_relu.h"
#include "own_cuda_kernels.h"
#include "strided_upsample.h"
#include "small_conv.h"

#include "recon/limits.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include <ostream>
#include <stdexcept>
#include <string>

namespace recon {
namespace {


// PRISM's crop_pad to a square of side t: zero-pad with pre = (t − s)/2 when growing, else a centred crop whose
// offset is int((s − t)/2) + 1 (the reference's +1, kept for identical geometry).
at::Tensor crop_pad(const at::Tensor& x, int64_t t) {
  const int64_t s = x.size(-1);
  if (t >= s) {
    const auto box = object_box(t, s);
    return at::constant_pad_nd(x, {box.before, box.after, box.before, box.after}, 0.0);
  }
  const int64_t offset = (s - t) / 2 + 1;
  return x.narrow(-2, offset, t).narrow(-1, offset, t);
}

// The first layer as y = Wᵀz with W viewed as [C_in, C_out·16]. The backward writes ∂W = z ⊗ g directly in W's
// own row-major layout: autograd's MvBackward produces the transposed outer product, which AccumulateGrad then
// copies element by element into the 8 MB weight's layout (measured: ~14 ms per step at N=512). With a sink, the
// factors (z, g) are handed to it instead and W receives no dense gradient.
struct LatentProjection : torch::autograd::Function<LatentProjection> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& latent, const at::Tensor& weight,
                            const std::shared_ptr<FactoredGradient>& sink) {
    ctx->save_for_backward({latent, weight});
    if (sink) detail::keep_alive(ctx, "sink", sink);
    return at::mv(weight.t(), latent);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    const auto saved = ctx->get_saved_variables();
    const auto& g = grad_outputs[0];
    auto grad_latent = at::mv(saved[1], g);
    if (auto sink = detail::kept<FactoredGradient>(ctx, "sink")) {
      // A copy of the latent: it is itself a parameter, updated in place before the weight's update reads it.
      sink->terms.emplace_back(saved[0].detach().clone(), g.detach().contiguous());
      return {grad_latent, torch::autograd::Variable(), torch::autograd::Variable()};
    }
    return {grad_latent, at::outer(saved[0], g), torch::autograd::Variable()};
  }
};

// ConvTranspose2d(k=4, s=2, p=1) as a 3×3 convolution to 4·C_out channels followed by pixel_shuffle(2): output
// pixel 2m+a only sees inputs m−1, m (a = 0; kernel taps 3, 1) or m, m+1 (a = 1; taps 2, 0). The 3×3 kernel of
// each phase holds those taps and one zero row/column. Built from the weight with one differentiable gather.
at::Tensor subpixel_kernel_index() {
  static const at::Tensor index = [] {
    // tap(a, d): transposed-kernel index used by phase a at input offset d − 1, or −1 for none.
    auto tap = [](int64_t a, int64_t d) -> int64_t {
      const int64_t taps[2][3] = {{3, 1, -1}, {-1, 2, 0}};
      return taps[a][d];
    };
    std::vector<int64_t> idx;
    for (int64_t ay = 0; ay < 2; ++ay)
      for (int64_t ax = 0; ax < 2; ++ax)
        for (int64_t dy = 0; dy < 3; ++dy)
          for (int64_t dx = 0; dx < 3; ++dx) {
            const int64_t ky = tap(ay, dy), kx = tap(ax, dx);
            idx.push_back(ky < 0 || kx < 0 ? 16 : ky * 4 + kx);  // 16: the appended zero tap
          }
    return at::tensor(idx, at::kLong);
  }();
  return index;
}

at::Tensor upsample_subpixel(const at::Tensor& x, const at::Tensor& weight) {
  const int64_t cin = weight.size(0), cout = weight.size(1);
  auto taps = at::cat({weight.permute({1, 0, 2, 3}).reshape({cout, cin, 16}), at::zeros({cout, cin, 1}, weight.options())}, 2);
  auto kernel = taps.index_select(2, subpixel_kernel_index().to(weight.device()))
                    .view({cout, cin, 2, 2, 3, 3})
                    .permute({0, 2, 3, 1, 4, 5})
                    .reshape({cout * 4, cin, 3, 3});
  const at::Tensor no_bias;
  const std::vector<int64_t> one = {1, 1};
  return at::pixel_shuffle(at::conv2d(x, kernel, no_bias, one, one, one, 1), 2);
}


}  // namespace

at::Tensor output_activation(const at::Tensor& x, OutputActivation a) {
  switch (a) {
    case OutputActivation::none: return x;
    case OutputActivation::relu: return at::relu(x);
    case OutputActivation::sigmoid: return at::sigmoid(x);
    case OutputActivation::softplus: return at::softplus(x, 1.0, 20.0);  // beta 1, linear above 20 (PyTorch's defaults)
    case OutputActivation::abs: return at::abs(x);
  }
  return x;
}

void FactoredGradient::move_into(at::Tensor& weight) {
  if (terms.empty()) return;
  at::Tensor dense;
  for (const auto& [left, right] : terms) {
    auto term = at::outer(left, right);
    dense = dense.defined() ? dense + term : term;
  }
  dense = dense.view(weight.sizes()).clone();  // a tensor of its own, not a view: optimizers detach grads in place
  terms.clear();
  auto& grad = weight.mutable_grad();
  grad = grad.defined() ? grad + dense : dense;
}

ProgressiveDecoderImpl::ProgressiveDecoderImpl(DecoderOptions options_) : options(std::move(options_)) { reset(); }

void ProgressiveDecoderImpl::reset() {
  const int64_t n = options.grid_size(), s = options.object_size();
  if (const auto why = grid_refusal(n); !why.empty()) {
    throw std::invalid_argument("DecoderOptions::grid_size " + why);
  }
  if (s < 1 || s > n) {
    throw std::invalid_argument("DecoderOptions::object_size = " + std::to_string(s) + ", must be in [1, grid_size]");
  }
  ups_.clear();
  refines_.clear();
  norms_.clear();

  // Channel progression: N/2, halved once per doubling (4 → 8 → … ≥ S), then halved down to 1.
  int64_t doublings = 0;
  for (int64_t side = 4; side < s; side *= 2) ++doublings;
  std::vector<int64_t> channels{n / 2};
  for (int64_t i = 0; i < doublings; ++i) channels.push_back(std::max<int64_t>(channels.back() / 2, 1));
  while (channels.back() > 1) channels.push_back(channels.back() / 2);
  if (channels.size() < static_cast<size_t>(doublings) + 2) channels.push_back(1);  // at least one refinement

  latent_ = register_parameter("latent", torch::randn({1, n, 1, 1}));
  namespace nn = torch::nn;
  first_ = register_module("up0", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(n, channels[0], 4).bias(false)));
  norms_.push_back(register_module("norm0", nn::BatchNorm2d(channels[0])));
  for (int64_t i = 0; i < doublings; ++i) {
    const auto in = channels[static_cast<size_t>(i)], out = channels[static_cast<size_t>(i) + 1];
    ups_.push_back(register_module("up" + std::to_string(i + 1),
                                   nn::ConvTranspose2d(nn::ConvTranspose2dOptions(in, out, 4).stride(2).padding(1).bias(false))));
    norms_.push_back(register_module("norm" + std::to_string(norms_.size()), nn::BatchNorm2d(out)));
  }
  for (size_t j = static_cast<size_t>(doublings) + 1; j < channels.size(); ++j) {
    const bool last = j + 1 == channels.size();
    refines_.push_back(register_module("refine" + std::to_string(j - static_cast<size_t>(doublings)),
                                       nn::Conv2d(nn::Conv2dOptions(channels[j - 1], channels[j], 3).padding(last ? 0 : 1).bias(last))));
    if (!last) norms_.push_back(register_module("norm" + std::to_string(norms_.size()), nn::BatchNorm2d(channels[j])));
  }
}

void ProgressiveDecoderImpl::pretty_print(std::ostream& stream) const {
  const auto& k = options.kernels();
  stream << "recon::ProgressiveDecoder(grid_size=" << options.grid_size() << ", object_size=" << options.object_size()
         << ", output_activation=" << to_string(options.output_activation())
         << ", matvec_first_layer=" << k.matvec_first_layer << ", subpixel_upsampling=" << k.subpixel_upsampling
         << ", blas_upsampling=" << k.blas_upsampling << ", fused_batchnorm_relu=" << k.fused_batchnorm_relu
         << ", small_channel_conv=" << k.small_channel_conv << ", factored_first_layer_grad=" << k.factored_first_layer_grad
         << ")";
}

at::Tensor ProgressiveDecoderImpl::forward_object() {
  const auto& kernels = options.kernels();
  if (!latent_.device().is_cpu()) {
    // The decoder's kernels without an implementation on the device (the switch table's third column; a device other
    // than CUDA has none of the core's own).
    const auto runnable = kernels.on_cuda(latent_.device().is_cuda() && detail::kOwnCudaKernels);
    std::string refused;
    for (const char* name : {"blas_upsampling", "fused_batchnorm_relu", "small_channel_conv"}) {
      if (kernels.by_name(name) && !runnable.by_name(name)) refused += (refused.empty() ? "" : ", ") + std::string(name);
    }
    if (!refused.empty()) {
      throw std::invalid_argument("ProgressiveDecoder on " + latent_.device().str() + ": " + refused +
                                  " run on the CPU only in this core; turn them off (an ExecutionPlan on cuda does)");
    }
  }
  at::Tensor x;
  if (kernels.matvec_first_layer) {
    // ConvT(k=4, s=1, p=0) of a 1×1 input is Wᵀz with W viewed as [C_in, C_out·16]: one BLAS gemv instead of
    // im2col plus a GEMM that packs the whole 8 MB weight. Same sums, same autograd graph semantics.
    const auto& w = first_->weight;
    const auto sink = kernels.factored_first_layer_grad ? first_layer_gradient_ : std::shared_ptr<FactoredGradient>();
    x = LatentProjection::apply(latent_.view({-1}), w.view({w.size(0), -1}), sink).view({1, w.size(1), 4, 4});
  } else {
    x = first_->forward(latent_);
  }
  size_t norm = 0;
  x = normalize(norm++, x);
  for (auto& up : ups_) {
    auto y = kernels.blas_upsampling       ? detail::upsample_k4_s2(x, up->weight)
             : kernels.subpixel_upsampling ? upsample_subpixel(x, up->weight)
                                              : up->forward(x);
    x = normalize(norm++, y);
  }
  for (size_t j = 0; j < refines_.size(); ++j) {
    x = refine(j, x);
    if (j + 1 < refines_.size()) x = normalize(norm++, x);
  }
  return crop_pad(output_activation(x, options.output_activation()), options.object_size());
}

at::Tensor ProgressiveDecoderImpl::refine(size_t j, const at::Tensor& x) {
  auto& conv = refines_[j];
  // With ≤ 8 input channels oneDNN pads to 16 channels and im2col + GEMM spends its time in col2im (measured at
  // 128²: the 4→2 layer's backward 2.4 ms for 1.2 M multiply-adds); the direct kernel computes the same sums.
  if (options.kernels().small_channel_conv && conv->options.in_channels() <= 8) {
    const int64_t padding = j + 1 == refines_.size() ? 0 : 1;  // as registered in reset()
    return detail::small_conv3x3(x, conv->weight, conv->bias, padding);
  }
  return conv->forward(x);
}

at::Tensor ProgressiveDecoderImpl::normalize(size_t i, const at::Tensor& x) {
  auto& norm = *norms_[i];
  // The fused node needs what the decoder always has: batch statistics (training mode) and affine parameters.
  if (options.kernels().fused_batchnorm_relu && norm.is_training()) return detail::batch_norm_relu(x, norm);
  return at::relu(norm.forward(x));
}

at::Tensor ProgressiveDecoderImpl::forward() { return on_grid(forward_object()); }

at::Tensor ProgressiveDecoderImpl::on_grid(const at::Tensor& object) const { return crop_pad(object, options.grid_size()); }

int64_t parameter_count(const torch::nn::Module& module) {
  int64_t total = 0;
  for (const auto& p : module.parameters()) total += p.numel();
  return total;
}

}  // namespace recon
