#pragma once
// The forward model on a CUDA device with cuFFT: a host-side interface with no CUDA types, so that callers and
// tests compile without the CUDA headers. Built only by the `cuda` preset (RECON_ENABLE_CUDA).
#include <string>

namespace recon::cuda {

/// True when a CUDA device can run kernels; otherwise `why` (if given) receives the runtime's reason.
bool device_available(std::string* why = nullptr);

/// The amplitude measurement in FFT order, |ifft2(fft2(field) · mask)| with orthonormal scaling, computed on
/// the device. `field`, `mask` and `out` are host arrays of n×n floats (row-major); the cuFFT plan for n is
/// made once and reused. Throws std::runtime_error with the CUDA or cuFFT error on failure.
void measure_amplitude(const float* field, const float* mask, float* out, int n);

}  // namespace recon::cuda
