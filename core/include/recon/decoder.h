#pragma once
/// PRISM's ProgressiveDecoder: a decoder-only deep image prior whose output is the reconstruction.
#include "recon/choices.h"
#include "recon/object_box.h"
#include "recon/optimization_switches.h"

#include <torch/arg.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace recon {

/// A weight's gradient held as the factors of outer products, ∂L/∂W = Σ_i left_i ⊗ right_i with W viewed as
/// [left.numel(), right.numel()], instead of a dense tensor. The first layer's gradient is rank one (latent ⊗
/// output gradient): 8 MB dense at N=512, 18 KB factored; writing and re-reading the dense form cost more than
/// the rest of Adam.
struct FactoredGradient {
  std::vector<std::pair<at::Tensor, at::Tensor>> terms;
  /// Adds the dense sum of the terms to `weight`'s gradient (same products as at::outer) and clears the terms.
  void move_into(at::Tensor& weight);
};

/// Options for the decoder.
/// Example: DecoderOptions(512, 128).output_activation(OutputActivation::sigmoid)
struct DecoderOptions {
  DecoderOptions(int64_t grid_size, int64_t object_size) : grid_size_(grid_size), object_size_(object_size) {}
  TORCH_ARG(int64_t, grid_size);    ///< N, a power of two ≥ 8; also the latent channel count, as in PRISM
  TORCH_ARG(int64_t, object_size);  ///< S, 1 ≤ S ≤ N
  TORCH_ARG(OutputActivation, output_activation) = OutputActivation::none;
  /// The optimisation switches (recon/optimization_switches.h) whose kernels live in the decoder; it reads these
  /// and no other: matvec_first_layer (the first layer as one matrix-vector product), subpixel_upsampling (stride-2
  /// transposed convolutions as convolution + pixel shuffle), blas_upsampling (the same without LibTorch's col2im: BLAS
  /// products up to 8 × 8 inputs, the core's own loops above; takes precedence), fused_batchnorm_relu (each BatchNorm and its ReLU as one node), small_channel_conv (3×3
  /// convolutions with ≤ 8 input channels through a direct kernel) and factored_first_layer_grad (the first layer's
  /// weight gradient left in factored_gradient()). All off by default: the library's layers. The execution plan sets
  /// them (configure_decoder). blas_upsampling and small_channel_conv are CPU loops, and fused_batchnorm_relu runs on
  /// CUDA only in a core compiled with nvcc: a decoder on another device refuses to run with one it lacks there.
  TORCH_ARG(OptimizationSwitches, kernels) = OptimizationSwitches::none();
};

/// Layers: ConvT(N → N/2, k4) on the 1×1 latent, then stride-2 ConvT doublings up to ≥ S, then 3×3 convolutions
/// halving the channels down to 1 (the last one unpadded, with bias, no BatchNorm). BatchNorm always normalises
/// with the statistics of the current output (train mode), as PRISM never switches to eval. 2,797,431
/// parameters at N=512, S=128.
class ProgressiveDecoderImpl : public torch::nn::Cloneable<ProgressiveDecoderImpl> {
 public:
  explicit ProgressiveDecoderImpl(DecoderOptions options);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;

  /// The reconstruction on the full grid: [1, 1, N, N] float32, zero outside the object box.
  at::Tensor forward();
  /// The object box only: [1, 1, S, S] float32; forward() is this zero-padded by object_offset() on each side.
  at::Tensor forward_object();
  /// An object box ([1, 1, S, S], e.g. from forward_object()) placed on the N grid as forward() places it:
  /// [1, 1, N, N], zero outside the box.
  at::Tensor on_grid(const at::Tensor& object) const;
  /// Row (and column) index in the N grid where the S×S object box starts (recon/object_box.h).
  int64_t object_offset() const { return object_box(options.grid_size(), options.object_size()).before; }

  /// The first layer's weight and its pending factored gradient (empty unless kernels().factored_first_layer_grad, which
  /// needs matvec_first_layer: the weight's gradient is then left here rather than in weight.grad(); an optimizer that
  /// consumes it updates from the factors, any other reader calls materialize_gradients() first).
  at::Tensor& first_layer_weight() { return first_->weight; }
  const std::shared_ptr<FactoredGradient>& factored_gradient() const { return first_layer_gradient_; }
  /// Moves pending factored gradients into the parameters' grad(), for readers of dense gradients.
  void materialize_gradients() { first_layer_gradient_->move_into(first_->weight); }

  DecoderOptions options;

 private:
  at::Tensor refine(size_t index, const at::Tensor& x);
  at::Tensor normalize(size_t index, const at::Tensor& x);  ///< relu(norms_[index](x))

  torch::Tensor latent_;
  torch::nn::ConvTranspose2d first_{nullptr};
  std::vector<torch::nn::ConvTranspose2d> ups_;
  std::vector<torch::nn::Conv2d> refines_;
  std::vector<torch::nn::BatchNorm2d> norms_;  // one after every layer but the last
  std::shared_ptr<FactoredGradient> first_layer_gradient_ = std::make_shared<FactoredGradient>();
};
TORCH_MODULE(ProgressiveDecoder);

/// The decoder's output activation applied to `x` (OutputActivation, recon/choices.h): the identity, max(x, 0),
/// 1/(1 + e^−x), ln(1 + e^x) or |x|.
at::Tensor output_activation(const at::Tensor& x, OutputActivation a);

/// Number of trainable scalars (latent included).
int64_t parameter_count(const torch::nn::Module& module);

}  // namespace recon
