#pragma once
// relu(BatchNorm2d(x)) in training mode as one autograd node with two passes forward and two backward, for the
// decoder, whose every BatchNorm is followed by a ReLU and always normalises with the statistics of the current
// output (PRISM never switches to eval). LibTorch runs the pair as two nodes with their own passes, temporaries
// and dispatch (measured at N = 512: ~1.5 ms per step over the eight pairs, for 0.36 M elements).
#include <torch/nn/modules/batchnorm.h>

namespace recon::detail {

/// relu(norm(x)) for x [1, C, H, W] float32 and a BatchNorm2d in training mode with affine parameters; differentiable
/// in x, norm.weight and norm.bias. Updates norm's running statistics and batch count as its forward() does.
/// Sums are accumulated in double in another order than LibTorch's: results agree to float32 rounding. On a CUDA
/// device it runs the core's own kernels (core/cuda/pipeline_kernels.h), the same arithmetic per channel.
at::Tensor batch_norm_relu(const at::Tensor& x, torch::nn::BatchNorm2dImpl& norm);

}  // namespace recon::detail
