#pragma once
/// Where a reconstruction's error lies in k-space: in the frequencies the sub-apertures measured, or in those none did.
/// The measurements constrain the first (a data-fit error there is the fit's); nothing but the prior decides the
/// second, so error there is the prior's extrapolation. The object is real, so its spectrum at −k is the conjugate of
/// the one at k: a disc at c measures the disc at −c too, and both count as measured. On the sparse seed workload most of the error, and most of its
/// seed-to-seed variation, is of the second kind (docs/decisions/2026-11-23-no-held-out-choice-no-ensemble.md).
#include "recon/aperture.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <vector>

namespace recon {

/// Energies of the error's spectrum (Parseval: their sum is the error's energy over the evaluation window).
struct ErrorBands {
  double measured = 0.0;    ///< inside the union of the sub-aperture discs and their mirrors through DC
  double unmeasured = 0.0;  ///< outside it
  /// unmeasured / (measured + unmeasured); 0 for an exact reconstruction.
  double unmeasured_fraction() const;
};

/// The error reconstruction − ground_truth (each [N, N] once squeezed, any real dtype) on
/// evaluation_window(·, object_size), zero elsewhere, split by the union of the discs of `radius` at `centers` and at
/// their mirrors −centers (centred k-space, as the measurements). The window's hard edge spreads the error's spectrum
/// by about N/S pixels, so a small error that lies inside the discs reads partly unmeasured.
/// Throws std::invalid_argument when the shapes differ or are not square, or (from evaluation_window and union_mask)
/// when object_size or radius is out of range.
ErrorBands error_bands(const at::Tensor& reconstruction, const at::Tensor& ground_truth, int64_t object_size,
                       const std::vector<Center>& centers, double radius);

}  // namespace recon
