#pragma once
/// Centred, orthonormal 2-D Fourier transforms over the last two dimensions.
#include <ATen/Tensor.h>

namespace recon {

/// Fc(x) = fftshift(fft2(ifftshift(x))), norm "ortho" (unitary: ‖Fc(x)‖₂ = ‖x‖₂).
/// The zero frequency sits at index N/2 of each axis. Any real or complex floating tensor with ≥ 2 dims;
/// returns complex of the matching precision.
at::Tensor fft2c(const at::Tensor& x);

/// Fc⁻¹(X) = fftshift(ifft2(ifftshift(X))), norm "ortho"; the inverse of fft2c.
at::Tensor ifft2c(const at::Tensor& x);

}  // namespace recon
