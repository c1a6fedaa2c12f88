#pragma once
/// Detector noise on amplitude measurements, physically consistent with the amplitude forward model.
#include <ATen/Tensor.h>

#include <cstdint>

namespace recon {

/// The detector records intensity I = a². Noise is additive Gaussian on I with one σ per measurement, chosen so
/// that 10·log10(mean(I²) / σ²) = snr_db; the measurement returned is sqrt(max(I + σ·ε, 0)), an amplitude again.
/// (PRISM adds intensity noise but then compares the noisy *intensity* with predicted *amplitudes*; this keeps
/// target and prediction in the same domain. Documented deviation.)
struct NoiseOptions {
  bool enabled = false;
  double snr_db = 40.0;
  uint64_t seed = 0;
};

/// Applies the noise model to an amplitude measurement `amplitude` (any shape, float32, ≥ 0). `draw` selects an
/// independent stream (e.g. the sample index) so that results do not depend on call order.
at::Tensor add_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw);

/// The same noise for an amplitude image kept in register with the object (|Fc⁻¹(Fc(x)·M)|, [..., N, N]), which is
/// PRISM's measurement (measure_amplitude) rolled back by one pixel on both axes: every pixel gets the noise value
/// its measured pixel got, so the initialisation's target and ePIE's data are the measurements the trainer fits,
/// noise and all. Without noise it returns the input unchanged.
at::Tensor add_registered_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw);

}  // namespace recon
