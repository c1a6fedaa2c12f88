#include "recon/fourier.h"

#include <ATen/ATen.h>

namespace recon {
namespace {
const std::vector<int64_t> kLastTwoDims = {-2, -1};
}  // namespace

// ifftshift before and fftshift after puts DC at index N/2 on both sides of the transform; for even N the two
// shifts are the same permutation. The shifts are real copies here: this is the reference convention, and the
// optimized pipeline removes them (see optimized_physics.cpp), not this function.
at::Tensor fft2c(const at::Tensor& x) {
  auto shifted = at::fft_ifftshift(x, kLastTwoDims);
  return at::fft_fftshift(at::fft_fft2(shifted, c10::nullopt, kLastTwoDims, "ortho"), kLastTwoDims);
}

at::Tensor ifft2c(const at::Tensor& x) {
  auto shifted = at::fft_ifftshift(x, kLastTwoDims);
  return at::fft_fftshift(at::fft_ifft2(shifted, c10::nullopt, kLastTwoDims, "ortho"), kLastTwoDims);
}

}  // namespace recon
