#pragma once
// The decoder's stride-2 transposed convolutions (kernel 4, padding 1, no bias) without im2col/col2im.
//
// Output pixel (2m + a, 2n + b) only sees inputs m + dy, n + dx with dy ∈ {−1, 0} for a = 0 (kernel rows 3, 1) and
// dy ∈ {0, +1} for a = 1 (kernel rows 2, 0), and likewise for columns: each of the four output phases (a, b) is a
// sum of four channel-mixing matrix products, one per kernel tap, of the input shifted by (dy, dx). With the input
// zero-padded by one pixel and flattened with its padded row length, every shifted input is a contiguous slice, so
// each product is one BLAS sgemm on views of the same buffer (two garbage columns per row are computed and
// dropped). Backward uses the same slices: the input gradient accumulates the transposed products into a padded
// buffer, the weight gradient of each tap is one product of the phase's output gradient with its input slice.
// LibTorch 1.13 runs these layers as slow_conv_transpose2d (im2col + GEMM + col2im), whose copies dominate at the
// decoder's shapes (measured at N = 512: 16→8 channels at 64² → 128², 2.7 ms of backward for 8.4 M multiply-adds).
#include <ATen/Tensor.h>

namespace recon::detail {

/// conv_transpose2d(x, weight, no bias, stride 2, padding 1) for x [1, C_in, H, W] float32 and weight
/// [C_in, C_out, 4, 4]; differentiable in both. Same sums as LibTorch's, in another order: results agree to float32
/// rounding, not bit for bit.
at::Tensor phase_upsample(const at::Tensor& x, const at::Tensor& weight);

}  // namespace recon::detail
