#include "recon/noise.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace recon {

namespace {

// One generator per (seed, draw): the noise of a sample does not depend on what was drawn before it.
at::Generator generator_for(const NoiseOptions& options, uint64_t draw) {
  return at::make_generator<at::CPUGeneratorImpl>(options.seed * 1000003ULL + draw);
}

void validate(const NoiseOptions& o) {
  if (o.enabled && o.photons > 0.0) throw std::invalid_argument("NoiseOptions: give an SNR or a photon count, not both");
  if (!(o.photons >= 0.0) || !std::isfinite(o.photons)) throw std::invalid_argument("NoiseOptions::photons must be >= 0 and finite");
  if (!(o.read_noise >= 0.0) || !std::isfinite(o.read_noise)) {
    throw std::invalid_argument("NoiseOptions::read_noise must be >= 0 and finite");
  }
  if (o.photons > 0.0 && !(o.reference_intensity > 0.0 && std::isfinite(o.reference_intensity))) {
    throw std::invalid_argument("NoiseOptions::reference_intensity must be > 0 and finite with photon counting");
  }
  const double counts_per_intensity = o.photons > 0.0 ? o.photons / o.reference_intensity : 1.0;
  if (!(counts_per_intensity >= std::numeric_limits<double>::min() && std::isfinite(counts_per_intensity))) {
    throw std::invalid_argument("NoiseOptions: photons / reference_intensity must be a normal, finite number");
  }
}

// Counts drawn on the CPU whatever the amplitude's device, so that a draw is the same numbers on every device.
at::Tensor add_photon_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw) {
  const auto device = amplitude.device();
  const double counts_per_intensity = options.photons / options.reference_intensity;
  const auto expected = amplitude.to(at::kCPU, at::kDouble).pow(2) * counts_per_intensity;
  auto gen = generator_for(options, draw);
  auto counts = at::poisson(expected, gen);
  if (options.read_noise > 0.0) {
    counts = counts + options.read_noise * at::normal(0.0, 1.0, counts.sizes(), gen, at::TensorOptions().dtype(at::kDouble));
  }
  return at::sqrt(at::clamp_min(counts, 0.0) / counts_per_intensity).to(device, at::kFloat);
}

}  // namespace

NoiseOptions photon_noise(double photons, double read_noise, const at::Tensor& ground_truth, uint64_t seed) {
  if (!(photons > 0.0) || !std::isfinite(photons)) throw std::invalid_argument("photon_noise: photons must be > 0 and finite");
  NoiseOptions o;
  o.photons = photons;
  o.read_noise = read_noise;
  o.seed = seed;
  const double peak = ground_truth.abs().max().item<double>();
  o.reference_intensity = peak * peak;
  if (!(o.reference_intensity > 0.0)) throw std::invalid_argument("photon_noise: the object is zero everywhere");
  validate(o);
  return o;
}

at::Tensor add_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw) {
  validate(options);
  if (options.photons > 0.0) return add_photon_noise(amplitude, options, draw);
  if (!options.enabled) return amplitude;
  auto intensity = amplitude.to(at::kFloat).pow(2);
  const double signal_power = intensity.pow(2).mean().item<double>();
  const double sigma = std::sqrt(signal_power / std::pow(10.0, options.snr_db / 10.0));
  auto gen = generator_for(options, draw);
  // Drawn on the CPU whatever the amplitude's device: a draw is the same numbers on every device.
  auto eps = at::normal(0.0, 1.0, intensity.sizes(), gen, at::TensorOptions().dtype(at::kFloat)).to(intensity.device());
  return at::sqrt(at::clamp_min(intensity + sigma * eps, 0.0));
}

at::Tensor add_registered_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw) {
  if (!options.active()) return amplitude;
  const std::vector<int64_t> axes = {-2, -1};
  return at::roll(add_measurement_noise(at::roll(amplitude, {-1, -1}, axes), options, draw), {1, 1}, axes);
}

}  // namespace recon
