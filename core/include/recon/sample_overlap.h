#pragma once
// When a sub-aperture counts as overlapped by earlier ones, stated once for the trainer (which picks its learning
// rate by it) and the command line (whose help states it). Free of LibTorch.

namespace recon {

/// The fraction of a sub-aperture's disc that earlier discs must cover for it to count as overlapped (see
/// TrainerOptions::isolated_learning_rate). Small, so that any real overlap counts (the partial scene's discs are
/// covered 4–38 %, and fitting them at the full rate gains 8–16 dB), yet above a few pixels of rasterised edges.
inline constexpr double kOverlapped = 0.02;

}  // namespace recon
