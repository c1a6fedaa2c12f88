#include "recon/measurement.h"

#include "recon/fourier.h"

#include <ATen/ATen.h>

namespace recon {

at::Tensor measure_amplitude(const at::Tensor& field, const at::Tensor& mask) {
  // PRISM propagates to the detector with a second *forward* transform and flips both axes; kept verbatim.
  return at::flip(at::abs(fft2c(fft2c(field) * mask)), {-2, -1});
}

}  // namespace recon
