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

// The weight of sample k's spectrum correction (ψ' − ψ) in its update, for a real pupil P (P* = P): α P / max P²
// (ePIE) or β P / ((1 − a) P² + a max P²) (rPIE, mPIE), and 0 where P is 0 (rPIE's denominator can be 0 there).
at::Tensor update_weight(const at::Tensor& pupil, const EpieOptions& o) {
  const auto power = pupil * pupil;
  const double max_power = power.max().item<double>();
  if (max_power <= 0.0) return at::zeros_like(pupil);
  if (o.variant == PieVariant::epie) return pupil * (o.object_step / max_power);
  const auto denominator = (1.0 - o.regularization) * power + o.regularization * max_power;
  return at::where(power > 0.0, o.object_step * pupil / at::clamp_min(denominator, kAmplitudeFloor), at::zeros_like(pupil));
}

void validate(const EpieOptions& o) {
  if (o.epochs < 0) throw std::invalid_argument("EpieOptions::epochs must be >= 0");
  if (!(o.object_step > 0.0 && o.object_step <= 2.0)) throw std::invalid_argument("EpieOptions::object_step must be in (0, 2]");
  if (!(o.regularization >= 0.0 && o.regularization <= 1.0)) {
    throw std::invalid_argument("EpieOptions::regularization must be in [0, 1]");
  }
  if (!(o.friction >= 0.0 && o.friction < 1.0)) throw std::invalid_argument("EpieOptions::friction must be in [0, 1)");
  if (!(o.feedback >= 0.0 && o.feedback <= 1.0)) throw std::invalid_argument("EpieOptions::feedback must be in [0, 1]");
  if (o.momentum_period < 1) throw std::invalid_argument("EpieOptions::momentum_period must be >= 1");
}
}  // namespace

EpieOptions EpieOptions::defaults(PieVariant variant) {
  EpieOptions o;
  o.variant = variant;
  if (variant == PieVariant::mpie) o.object_step = 0.25;
  return o;
}

EpieResult epie_reconstruct(const ReconstructionProblem& p, const EpieOptions& o, const NoiseOptions& noise) {
  if (!p.ground_truth.defined() || p.ground_truth.dim() != 2) throw std::invalid_argument("epie: ground truth must be [N, N]");
  if (p.centers.empty()) throw std::invalid_argument("epie: no sampling centres");
  if (p.ground_truth.size(0) != p.ground_truth.size(1)) throw std::invalid_argument("epie: ground truth must be [N, N]");
  if (const auto why = radius_refusal(p.radius, p.ground_truth.size(-1)); !why.empty()) {
    throw std::invalid_argument("epie: ReconstructionProblem::radius " + why);
  }
  if (const auto why = object_size_refusal(p.object_size, p.ground_truth.size(-1)); !why.empty()) {
    throw std::invalid_argument("epie: ReconstructionProblem::object_size " + why);
  }
  validate(o);
  const int64_t n = p.ground_truth.size(-1), s = p.object_size, pre = object_box(n, s).before;
  if (o.start.defined() && (o.start.dim() != 2 || o.start.size(0) != n || o.start.size(1) != n)) {
    throw std::invalid_argument("EpieOptions::start must be [" + std::to_string(n) + ", " + std::to_string(n) + "]");
  }
  if (o.start.defined() && !at::isfinite(o.start).all().item<bool>()) throw std::invalid_argument("EpieOptions::start must be finite");
  auto support = at::zeros({n, n}, at::kFloat);
  support.narrow(0, pre, s).narrow(1, pre, s).fill_(1.0);

  std::vector<at::Tensor> pupils, weights, measured;
  const auto gt_spectrum = fft2c(p.ground_truth);
  for (size_t k = 0; k < p.centers.size(); ++k) {
    auto pupil = disc_mask(n, p.centers[k], p.radius).to(at::kFloat);
    auto amplitude = at::abs(ifft2c(gt_spectrum * pupil));
    measured.push_back(add_registered_measurement_noise(amplitude, noise, k));
    weights.push_back(update_weight(pupil, o));
    pupils.push_back(pupil);
  }

  EpieResult result;
  auto object = o.start.defined() ? at::clamp(o.start.to(at::kFloat), 0.0, 1.0) * support
                                   : support.clone();  // PRISM's start: ones inside the support
  std::vector<size_t> order(p.centers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937_64 shuffler(o.seed);
  // mPIE's momentum: the object after the last momentum step, and the velocity.
  const bool momentum = o.variant == PieVariant::mpie && o.feedback > 0.0;
  auto last = object, velocity = at::zeros_like(object);
  int64_t updates = 0;
  for (int64_t epoch = 0; epoch < o.epochs; ++epoch) {
    if (o.shuffle) std::shuffle(order.begin(), order.end(), shuffler);
    for (size_t k : order) {
      auto spectrum = fft2c(object);
      auto exit_wave = spectrum * pupils[k];
      auto image = ifft2c(exit_wave);
      auto corrected = image * (measured[k] / at::clamp_min(at::abs(image), kAmplitudeFloor));
      // With a binary pupil and a step of 1, this replaces the spectrum inside the pupil by the corrected one.
      spectrum = spectrum + weights[k] * (fft2c(corrected) - exit_wave);
      object = at::clamp(at::real(ifft2c(spectrum)), 0.0, 1.0) * support;
      if (momentum && ++updates % o.momentum_period == 0) {
        velocity = o.friction * velocity + (object - last);
        object = at::clamp(object + o.feedback * velocity, 0.0, 1.0) * support;
        last = object;  // every update makes a new tensor: no copy needed
      }
    }
    result.per_epoch.push_back(evaluate(object, p.ground_truth, s));
  }
  result.reconstruction = object;
  return result;
}

}  // namespace recon
