// Contract: the cuFFT forward model equals the CPU's FFT-order measurement; without a device the test is
// skipped with the runtime's reason.
#include "cufft_measurement.h"

#include "recon/aperture.h"
#include "recon/targets.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

namespace {

constexpr double kDeviceTolerance = 1e-5;  // float32 cuFFT vs pocketfft, relative to the largest amplitude

TEST(gpu, cufft_measurement_matches_cpu) {
  std::string why;
  if (!recon::cuda::device_available(&why)) GTEST_SKIP() << "no usable CUDA device: " << why;
  const int n = 128;
  auto field = recon::synthetic_target(recon::TargetKind::planet, 32, n).contiguous();
  auto mask = at::fft_ifftshift(recon::disc_mask(n, {10.5, -7.25}, 9.0).to(at::kFloat), {-2, -1}).contiguous();
  auto expected = at::abs(at::fft_ifft2(at::fft_fft2(field, c10::nullopt, {-2, -1}, "ortho") * mask, c10::nullopt, {-2, -1}, "ortho"));
  auto out = at::empty({n, n}, at::kFloat);
  recon::cuda::measure_amplitude(field.data_ptr<float>(), mask.data_ptr<float>(), out.data_ptr<float>(), n);
  EXPECT_LT((out - expected).abs().max().item<double>() / expected.abs().max().item<double>(), kDeviceTolerance);
}

}  // namespace
