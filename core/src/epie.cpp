#include "recon/epie.h"

#include "recon/fourier.h"
#include "recon/limits.h"
#include "recon/object_box.h"

#include <ATen/ATen.h>

#include <numeric>
#include <random>
#include <stdexcept>

namespace recon {
namespace {
// Below this amplitude the phase of φ is meaningless; the constraint then keeps φ's (tiny) value direction-free.
constexpr double kAmplitudeFloor = 1e-12;
}  // namespace

EpieResult epie_reconstruct(const ReconstructionProblem& p, const EpieOptions& o, const NoiseOptions& noise) {
  if (!p.ground_truth.defined() || p.ground_truth.dim() != 2) throw std::invalid_argument("epie: ground truth must be [N, N]");
  if (p.centers.empty()) throw std::invalid_argument("epie: no sampling centres");
  if (!(p.radius >= kMinRadius)) throw std::invalid_argument("epie: radius = " + std::to_string(p.radius) + ", must be >= 1 k-space pixel");
  if (o.epochs < 0) throw std::invalid_argument("EpieOptions::epochs must be >= 0");
  const int64_t n = p.ground_truth.size(-1), s = p.object_size, pre = object_box(n, s).before;
  if (o.start.defined() && (o.start.dim() != 2 || o.start.size(0) != n || o.start.size(1) != n)) {
    throw std::invalid_argument("EpieOptions::start must be [" + std::to_string(n) + ", " + std::to_string(n) + "]");
  }
  if (o.start.defined() && !at::isfinite(o.start).all().item<bool>()) throw std::invalid_argument("EpieOptions::start must be finite");
  auto support = at::zeros({n, n}, at::kFloat);
  support.narrow(0, pre, s).narrow(1, pre, s).fill_(1.0);

  std::vector<at::Tensor> pupils, measured;
  const auto gt_spectrum = fft2c(p.ground_truth);
  for (size_t k = 0; k < p.centers.size(); ++k) {
    auto pupil = disc_mask(n, p.centers[k], p.radius).to(at::kFloat);
    auto amplitude = at::abs(ifft2c(gt_spectrum * pupil));
    measured.push_back(add_registered_measurement_noise(amplitude, noise, k));
    pupils.push_back(pupil);
  }

  EpieResult result;
  auto object = o.start.defined() ? at::clamp(o.start.to(at::kFloat), 0.0, 1.0) * support
                                   : support.clone();  // PRISM's start: ones inside the support
  std::vector<size_t> order(p.centers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937_64 shuffler(o.seed);
  for (int64_t epoch = 0; epoch < o.epochs; ++epoch) {
    if (o.shuffle) std::shuffle(order.begin(), order.end(), shuffler);
    for (size_t k : order) {
      auto spectrum = fft2c(object);
      auto exit_wave = spectrum * pupils[k];
      auto image = ifft2c(exit_wave);
      auto corrected = image * (measured[k] / at::clamp_min(at::abs(image), kAmplitudeFloor));
      // Binary pupil: conj(P)/max|P|² = P, so α = 1 replaces the spectrum inside the pupil by the corrected one.
      spectrum = spectrum + o.object_step * pupils[k] * (fft2c(corrected) - exit_wave);
      object = at::clamp(at::real(ifft2c(spectrum)), 0.0, 1.0) * support;
    }
    result.per_epoch.push_back(evaluate(object, p.ground_truth, s));
  }
  result.reconstruction = object;
  return result;
}

}  // namespace recon
