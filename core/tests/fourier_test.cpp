// Contract: fft2c/ifft2c are the centred, orthonormal 2-D DFT and its inverse; the measurement operator with a
// fully open pupil returns the object's modulus (rolled by PRISM's flip).
#include "recon/fourier.h"
#include "recon/measurement.h"
#include "test_util.h"

#include <complex>
#include <cmath>

namespace {

constexpr double kFloat64Tolerance = 1e-12;  // float64, N ≤ 16: rounding ~ eps·N² ≪ 1e-12
constexpr double kFloat32Tolerance = 2e-6;   // float32 round trip at 64²: ~ eps·log N with margin

// Naive centred DFT: X[k] = (1/N) Σ x[n] exp(−2πi (k−N/2)(n−N/2)/N) over both axes.
at::Tensor naive_centred_dft(const at::Tensor& x) {
  const int64_t n = x.size(0);
  auto input = x.to(at::kComplexDouble).contiguous();
  const auto* in = reinterpret_cast<const std::complex<double>*>(input.data_ptr<c10::complex<double>>());
  auto out = at::zeros({n, n}, at::kComplexDouble);
  auto* result = reinterpret_cast<std::complex<double>*>(out.data_ptr<c10::complex<double>>());
  for (int64_t ky = 0; ky < n; ++ky) {
    for (int64_t kx = 0; kx < n; ++kx) {
      std::complex<double> sum = 0.0;
      for (int64_t y = 0; y < n; ++y) {
        for (int64_t xx = 0; xx < n; ++xx) {
          const double phase = -2.0 * M_PI * static_cast<double>((ky - n / 2) * (y - n / 2) + (kx - n / 2) * (xx - n / 2)) / static_cast<double>(n);
          sum += in[y * n + xx] * std::polar(1.0, phase);
        }
      }
      result[ky * n + kx] = sum / static_cast<double>(n);
    }
  }
  return out;
}

TEST(fourier, matches_naive_centred_dft) {
  at::manual_seed(1);
  for (int64_t n : {8, 12}) {
    auto x = at::complex(at::randn({n, n}, at::kDouble), at::randn({n, n}, at::kDouble));
    auto diff = (recon::fft2c(x) - naive_centred_dft(x)).abs().max().item<double>();
    EXPECT_LT(diff, kFloat64Tolerance) << "n = " << n;
  }
}

TEST(fourier, inverse_round_trip) {
  at::manual_seed(2);
  auto x = at::randn({64, 64});
  auto back = at::real(recon::ifft2c(recon::fft2c(x)));
  EXPECT_LT((back - x).abs().max().item<double>(), kFloat32Tolerance);
}

TEST(fourier, parseval_energy_is_preserved) {
  at::manual_seed(3);
  auto x = at::randn({32, 32}, at::kDouble);
  const double space = x.pow(2).sum().item<double>();
  const double freq = recon::fft2c(x).abs().pow(2).sum().item<double>();
  EXPECT_NEAR(freq, space, kFloat64Tolerance * space);
}

TEST(fourier, dc_sits_at_index_n_over_2) {
  auto x = at::ones({16, 16}, at::kDouble);
  auto spectrum = recon::fft2c(x).abs();
  EXPECT_NEAR(spectrum[8][8].item<double>(), 16.0, kFloat64Tolerance);  // ortho: Σx / N = 256 / 16
  EXPECT_NEAR(spectrum.sum().item<double>(), 16.0, kFloat64Tolerance);
}

TEST(measurement, full_open_aperture_is_identity_up_to_the_flip) {
  at::manual_seed(4);
  auto x = at::rand({32, 32});
  auto m = recon::measure_amplitude(x, at::ones({32, 32}, at::kBool));
  // flip(|Fc(Fc(x))|) = roll(|x|, −1) on both axes (prism-core.md §1.3).
  EXPECT_LT((m - at::roll(x.abs(), {-1, -1}, {0, 1})).abs().max().item<double>(), kFloat32Tolerance);
}

}  // namespace
