#include "recon/noise.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <vector>

namespace recon {

at::Tensor add_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw) {
  if (!options.enabled) return amplitude;
  auto intensity = amplitude.to(at::kFloat).pow(2);
  const double signal_power = intensity.pow(2).mean().item<double>();
  const double sigma = std::sqrt(signal_power / std::pow(10.0, options.snr_db / 10.0));
  // One generator per (seed, draw): the noise of a sample does not depend on what was drawn before it.
  auto gen = at::make_generator<at::CPUGeneratorImpl>(options.seed * 1000003ULL + draw);
  // Drawn on the CPU whatever the amplitude's device: a draw is the same numbers on every device.
  auto eps = at::normal(0.0, 1.0, intensity.sizes(), gen, at::TensorOptions().dtype(at::kFloat)).to(intensity.device());
  return at::sqrt(at::clamp_min(intensity + sigma * eps, 0.0));
}

at::Tensor add_registered_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw) {
  if (!options.enabled) return amplitude;
  const std::vector<int64_t> axes = {-2, -1};
  return at::roll(add_measurement_noise(at::roll(amplitude, {-1, -1}, axes), options, draw), {1, 1}, axes);
}

}  // namespace recon
