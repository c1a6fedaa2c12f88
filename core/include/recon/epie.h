#pragma once
/// The classical solvers: Fourier-ptychographic error reduction with a known pupil on the same measurements — ePIE,
/// with PRISM's Mo-PIE bugs fixed (prism-core.md §8), and the regularised rPIE and momentum-accelerated mPIE that
/// practitioners pick instead (Maiden, Johnson and Li, Optica 4:736, 2017). Ptychography's object is the spectrum
/// here, and its probe the pupil.
#include "recon/choices.h"
#include "recon/metrics.h"
#include "recon/noise.h"
#include "recon/trainer.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <vector>

namespace recon {

/// Example: EpieOptions::defaults(PieVariant::mpie) — mPIE with the published defaults; EpieOptions{} is ePIE's.
struct EpieOptions {
  PieVariant variant = PieVariant::epie;
  int64_t epochs = 100;        ///< passes over all samples, one update per sample each
  /// ePIE's α, rPIE's and mPIE's β: the step of every update. With a binary pupil, 1 replaces the spectrum inside the
  /// pupil by the corrected one, whatever the variant.
  double object_step = 1.0;
  double regularization = 0.1;  ///< rPIE, mPIE: a, the share of max|P|² in the step's denominator, in [0, 1]
  double friction = 0.7;        ///< mPIE: η, how much of the last momentum carries into the next
  double feedback = 0.3;        ///< mPIE: how far the object moves along the momentum (0: rPIE)
  int64_t momentum_period = 20; ///< mPIE: updates between momentum steps (>= 1)
  bool shuffle = false;        ///< visit samples in a seeded random order each epoch
  uint64_t seed = 0;
  /// Where the object starts: an [N, N] estimate (e.g. the deep prior's reconstruction, to refine it against the
  /// measurements), clamped to [0, 1] and cut to the support as every update is. Undefined: PRISM's start, ones
  /// inside the support.
  at::Tensor start;

  /// The published defaults: ePIE α = 1; rPIE β = 1, a = 0.1; mPIE β = 0.25, a = 0.1, friction 0.7, feedback 0.3
  /// and a momentum step every 20 updates (PtyLab's values; PtyLab draws the momentum step with probability 0.05 per
  /// update, this takes every 20th, the same rate without the draw).
  static EpieOptions defaults(PieVariant variant);
};

struct EpieResult {
  at::Tensor reconstruction;                ///< [N, N] float32 in [0, 1], zero outside the object box
  std::vector<QualityReport> per_epoch;     ///< quality after each epoch
};

/// One update of sample k, with pupil P, the spectrum Ô of the object, the exit wave ψ = P·Ô and the corrected ψ' (the
/// measured amplitude with ψ's phase, carried back to k-space):
///   ePIE: Ô ← Ô + α P* (ψ' − ψ) / max|P|²
///   rPIE, mPIE: Ô ← Ô + β P* (ψ' − ψ) / ((1 − a)|P|² + a max|P|²)
/// after which the object is made real, clamped to [0, 1] and cut to the support. mPIE then, every momentum_period
/// updates, moves the object along its momentum: v ← η v + (O − O_last), O ← O + feedback · v (projected as above),
/// where O_last is the object after the previous momentum step (the start, at first). Where |P| ∈ {0, 1}, the
/// regulariser drops out: rPIE is ePIE with α = β, and mPIE differs from it by the momentum alone.
/// Each update uses the pupil at the sample's own centre (PRISM used the DC pupil for every update), amplitudes
/// on both sides of the modulus constraint (PRISM mixed intensity and amplitude), and measurements indexed by
/// sample, not by visiting position (PRISM paired them wrongly when shuffling). Object: real, clamped to [0, 1],
/// zero outside the S×S box. Throws std::invalid_argument on a start that is not a finite [N, N] tensor, and on a step,
/// regulariser, friction, feedback or period out of range.
EpieResult epie_reconstruct(const ReconstructionProblem& problem, const EpieOptions& options,
                            const NoiseOptions& noise = {});

}  // namespace recon
