#pragma once
/// Detector noise on amplitude measurements, physically consistent with the amplitude forward model.
#include <ATen/Tensor.h>

#include <cstdint>

namespace recon {

/// The detector records intensity I = a². Noise is additive Gaussian on I with one σ per measurement, chosen so
/// that 10·log10(mean(I²) / σ²) = snr_db; the measurement returned is sqrt(max(I + σ·ε, 0)), an amplitude again.
/// (PRISM adds intensity noise but then compares the noisy *intensity* with predicted *amplitudes*; this keeps
/// target and prediction in the same domain. Documented deviation.)
///
/// Photon counting (photons > 0; Yeh et al., Opt. Express 23:33214, 2015, fit amplitudes under this model): the
/// detector counts n ~ Poisson(photons · I / reference_intensity) and adds Gaussian read noise of read_noise counts
/// (SD); the measurement is sqrt(max(n, 0) · reference_intensity / photons), an amplitude on the clean one's scale.
/// `photons` is the expected count of a pixel of intensity reference_intensity: one illumination and exposure for
/// every sub-aperture, so dark-field discs count few photons and the bright-field one many. photon_noise() sets the
/// reference to the object's brightest pixel. The amplitude is what every solver fits (the square root steadies
/// Poisson's variance near 1/4 count from a few counts per pixel up; below that it is smaller, and zero counts are
/// common).
struct NoiseOptions {
  bool enabled = false;  ///< Gaussian intensity noise at snr_db
  double snr_db = 40.0;
  uint64_t seed = 0;
  double photons = 0.0;               ///< > 0: photon counting instead (enabled must then be false)
  double read_noise = 0.0;            ///< photon counting: SD of the Gaussian read noise, counts (>= 0)
  double reference_intensity = 0.0;   ///< photon counting: the intensity that expects `photons` counts (> 0)

  bool active() const { return enabled || photons > 0.0; }
};

/// Photon-counting options for measurements of `ground_truth` (an amplitude): `photons` expected at its brightest
/// pixel. Throws std::invalid_argument on photons <= 0, a negative or non-finite read noise, or an all-zero object.
NoiseOptions photon_noise(double photons, double read_noise, const at::Tensor& ground_truth, uint64_t seed);

/// Applies the noise model to an amplitude measurement `amplitude` (any shape, float32, ≥ 0). `draw` selects an
/// independent stream (e.g. the sample index) so that results do not depend on call order. Throws
/// std::invalid_argument on options that name both models, or photon counting without a positive reference.
at::Tensor add_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw);

/// The same noise for an amplitude image kept in register with the object (|Fc⁻¹(Fc(x)·M)|, [..., N, N]), which is
/// PRISM's measurement (measure_amplitude) rolled back by one pixel on both axes: every pixel gets the noise value
/// its measured pixel got, so the initialisation's target and ePIE's data are the measurements the trainer fits,
/// noise and all. Without noise it returns the input unchanged.
at::Tensor add_registered_measurement_noise(const at::Tensor& amplitude, const NoiseOptions& options, uint64_t draw);

}  // namespace recon
