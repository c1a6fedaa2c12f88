#pragma once
// A direct 3×3, stride-1 convolution for the decoder's last layers (≤ 8 input channels at 128²), where LibTorch's
// paths are slow for the work they do: oneDNN pads 1–8 channels to 16, and im2col + GEMM spends its time in
// col2im. Here the output and the input gradient are computed in register-held blocks of sixteen columns of up to
// four channels, each tap adding a scaled, shifted input block loaded once for all of them (a row's last columns, and
// rows narrower than sixteen, one channel at a time); the weight gradient as per-column sums of products of shifted
// rows, summed in double.
#include <ATen/Tensor.h>

#include <cstdint>

namespace recon::detail {

/// conv2d(x, weight, bias, stride 1, padding `padding`) for x [1, C_in, H, W], weight [C_out, C_in, 3, 3], bias
/// [C_out] or undefined; differentiable in all three. Sums are ordered differently from LibTorch's: results agree
/// to float32 rounding, not bit for bit.
at::Tensor small_conv3x3(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t padding);

}  // namespace recon::detail
