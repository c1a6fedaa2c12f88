#pragma once
// The decoder's stride-2 transposed convolutions (kernel 4, padding 1, no bias) without LibTorch's col2im.
//
// LibTorch 1.13 runs these layers as slow_conv_transpose2d: a GEMM into columns and a generic col2im (im2col in
// backward) whose per-element index arithmetic dominates at the decoder's larger outputs (measured, 16→8 channels
// at 64² → 128²: 1.0 ms forward, 2.5 ms backward for 8.4 M multiply-adds). Two exact formulations, chosen by size:
//
// - Phases, for inputs larger than 8 × 8. Output pixel (2m + a, 2n + b) only sees inputs m + dy, n + dx with
//   dy ∈ {−1, 0} for a = 0 (kernel rows 3, 1) and dy ∈ {0, +1} for a = 1 (kernel rows 2, 0), likewise for columns:
//   each of the four output phases is a sum of four channel-mixing products, one per kernel tap, of the input
//   shifted by (dy, dx). With the input zero-padded by one pixel and flattened with its padded row length, every
//   shifted input is a contiguous slice of the same buffer (two garbage columns per row are computed and dropped). No
//   col2im at all; the weight is repacked per tap. The products run in the core's own register-blocked loops, not
//   BLAS: each of these small products (K = C_in or C_out, 8 to 64) paid for packing its operands on every call, and
//   one loop sums a phase's four taps, or the input gradient's sixteen, without a buffer between them.
// - Columns, for inputs up to 8 × 8, where the weight (up to 2 MB) outweighs the image and repacking it would cost
//   more than the products: one GEMM into [C_out · 16, H · W] columns on the weight in its own layout, then each
//   output pixel adds its four taps (col2im specialised to this geometry); backward gathers the output gradient into
//   the same columns and runs one GEMM per gradient. This is LibTorch's algorithm with its copies made cheap.
//
// Measured per layer of the seed workload, when the phases ran on BLAS (forward + backward, ms, mean of 200 calls in a
// standalone loop, one run; LibTorch / phases / columns; the own loops' gain is in
// docs/results/2026-11-26-end-to-end-history.md): 256→128 at 4²:
// 0.92 / 2.76 / 1.03; 128→64 at 8²: 0.79 / 0.85 / 0.66; 64→32 at 16²: 0.97 / 0.68 / 0.69; 32→16 at 32²:
// 1.92 / 0.63 / 1.11; 16→8 at 64²: 3.51 / 0.62 / 1.49.
#include <ATen/Tensor.h>

namespace recon::detail {

/// conv_transpose2d(x, weight, no bias, stride 2, padding 1) for x [1, C_in, H, W] float32 and weight
/// [C_in, C_out, 4, 4] float32; differentiable in both. The columns path sums in LibTorch's order (bit-identical in
/// measurements); the phases path in its own order (stated at each kernel): results agree to float32 rounding.
at::Tensor upsample_k4_s2(const at::Tensor& x, const at::Tensor& weight);

}  // namespace recon::detail
