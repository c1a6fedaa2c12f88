#pragma once
/// Where a reconstruction's error lies in k-space: in the frequencies the sub-apertures measured, or in those none did.
/// The measurements constrain the first (a data-fit error there is the fit's); nothing but the prior decides the
/// second, so error there is the prior's extrapolation. On the sparse seed workload most of the error, and most of its
/// seed-to-seed variation, is of the second kind (README, "Where europa's seed spread lives").
#include "recon/aperture.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <vector>

namespace recon {

/// Energies of the error's spectrum (Parseval: their sum is the error's energy over the evaluation window).
struct ErrorBands {
  double measured = 0.0;    ///< inside the union of the sub-aperture discs
  double unmeasured = 0.0;  ///< outside it
  /// unmeasured / (measured + unmeasured); 0 for an exact reconstruction.
  double unmeasured_fraction() const;
};

/// The error reconstruction − ground_truth ([N, N] each, any real dtype) on evaluation_window(·, object_size), zero
/// elsewhere, split by the union of the discs of `radius` at `centers` (centred k-space, as the measurements).
/// Throws std::invalid_argument when the shapes differ or are not square [N, N].
ErrorBands error_bands(const at::Tensor& reconstruction, const at::Tensor& ground_truth, int64_t object_size,
                       const std::vector<Center>& centers, double radius);

}  // namespace recon
