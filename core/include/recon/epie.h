#pragma once
/// The classical baseline: Fourier-ptychographic error reduction (ePIE with a known binary pupil) on the same
/// measurements, with PRISM's Mo-PIE bugs fixed (prism-core.md §8).
#include "recon/metrics.h"
#include "recon/noise.h"
#include "recon/trainer.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <vector>

namespace recon {

/// Example: EpieOptions{}.epochs = 50.
struct EpieOptions {
  int64_t epochs = 100;        ///< passes over all samples, one update per sample each
  double object_step = 1.0;    ///< α; with a binary pupil, 1 replaces the spectrum inside the pupil
  bool shuffle = false;        ///< visit samples in a seeded random order each epoch
  uint64_t seed = 0;
  /// Where the object starts: an [N, N] estimate (e.g. the deep prior's reconstruction, to refine it against the
  /// measurements), clamped to [0, 1] and cut to the support as every update is. Undefined: PRISM's start, ones
  /// inside the support.
  at::Tensor start;
};

struct EpieResult {
  at::Tensor reconstruction;                ///< [N, N] float32 in [0, 1], zero outside the object box
  std::vector<QualityReport> per_epoch;     ///< quality after each epoch
};

/// Each update uses the pupil at the sample's own centre (PRISM used the DC pupil for every update), amplitudes
/// on both sides of the modulus constraint (PRISM mixed intensity and amplitude), and measurements indexed by
/// sample, not by visiting position (PRISM paired them wrongly when shuffling). Object: real, clamped to [0, 1],
/// zero outside the S×S box. Throws std::invalid_argument on a start that is not a finite [N, N] tensor.
EpieResult epie_reconstruct(const ReconstructionProblem& problem, const EpieOptions& options,
                            const NoiseOptions& noise = {});

}  // namespace recon
