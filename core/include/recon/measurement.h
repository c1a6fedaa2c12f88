#pragma once
/// PRISM's amplitude measurement operator and the per-sample training targets built from it.
#include "recon/aperture.h"

#include <ATen/Tensor.h>

namespace recon {

/// The reference operator m = flip(|Fc(Fc(x) · M)|): coherent low-pass through the pupil `mask`, modulus,
/// as PRISM computes it (two centred forward FFTs and a flip). Equals roll(|Fc⁻¹(Fc(x)·M)|, −1) on both axes.
/// `field`: [..., N, N] real or complex; `mask`: [N, N] bool or real. Returns a float32 amplitude [..., N, N].
at::Tensor measure_amplitude(const at::Tensor& field, const at::Tensor& mask);

}  // namespace recon
