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
  /// The part of `measured` that one constant phase per independent region removes: the most by which the error's
  /// energy falls when the reconstruction's spectrum is multiplied by e^{iφ} on a region and e^{−iφ} on its mirror
  /// (φ ∈ {0, π} on a region that is its own mirror, as the one at DC). A region is a set of discs joined by
  /// overlaps; no measurement can tell such rotations apart (each disc's amplitude image keeps its modulus), so this
  /// part of the error is the data's ambiguity, not a fitting shortfall. A lower bound of that ambiguity's share: an
  /// isolated disc's content reflected through its centre and conjugated is measured identically too, and is not
  /// counted. 0 <= disc_phase <= measured, up to rounding.
  double disc_phase = 0.0;
  /// unmeasured / (measured + unmeasured); 0 for an exact reconstruction.
  double unmeasured_fraction() const;
  /// disc_phase / (measured + unmeasured); 0 for an exact reconstruction.
  double disc_phase_fraction() const;
};

/// A set of discs joined by overlaps, and its mirror through DC: multiplying a real object's spectrum by e^{iφ} on
/// `mask` and by e^{−iφ} on `mirror` keeps the object real and every measurement's modulus, whatever φ. `mirror` is
/// undefined for a region that is its own mirror (as the one at DC), where only φ = π (the sign) keeps it real.
struct PhaseRegion {
  at::Tensor mask;    ///< bool [N, N], centred k-space
  at::Tensor mirror;  ///< bool [N, N], or undefined
};

/// The regions whose phases the measurements leave free: the discs of `radius` at `centers` and at −centers, joined
/// where their pixels overlap; each region appears once, with its mirror. No region is empty; regions are disjoint.
std::vector<PhaseRegion> phase_ambiguity_regions(int64_t n, const std::vector<Center>& centers, double radius);

/// The error reconstruction − ground_truth (each [N, N] once squeezed, any real dtype) on
/// evaluation_window(·, object_size), zero elsewhere, split by the union of the discs of `radius` at `centers` and
/// their mirrors (the index map of conjugate symmetry on the centred grid). The window's hard edge spreads the
/// error's spectrum by about N/S pixels, so a small error that lies inside the discs reads partly unmeasured, and a
/// phase rotation of the truth reads as a pure disc_phase error only when the window is the whole grid
/// (object_size = N): a rotated object no longer fits the S × S box, which is why a box-constrained reconstruction
/// can tell it apart at all.
/// Throws std::invalid_argument when the shapes differ or are not square, or (from evaluation_window and union_mask)
/// when object_size or radius is out of range.
ErrorBands error_bands(const at::Tensor& reconstruction, const at::Tensor& ground_truth, int64_t object_size,
                       const std::vector<Center>& centers, double radius);

}  // namespace recon
