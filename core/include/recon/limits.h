#pragma once
// The smallest problem the core reconstructs and evaluates, stated once for the core (which refuses smaller ones)
// and its command line (which checks them before anything runs). Free of LibTorch.
#include <cstdint>

namespace recon {

/// Side of SSIM's Gaussian window (metrics.h); its reflect padding by kSsimWindow / 2 needs a wider image.
inline constexpr int64_t kSsimWindow = 11;

/// The smallest object size S: the evaluation window must be wider than SSIM's reflect padding.
inline constexpr int64_t kMinObjectSize = kSsimWindow / 2 + 1;

/// The smallest sub-aperture radius, in k-space pixels: a narrower pupil holds only the zero frequency, which
/// measures the object's mean and nothing of its structure (every quality metric of such a run is undefined).
inline constexpr double kMinRadius = 1.0;

/// Memory a run holds per sample and grid pixel, for its measurements, pupils and their derived targets (measured
/// with `recon reconstruct --steps 0 --init-steps 0`: 33 bytes at N=128 and 38 at N=64, 1,000 to 3,000 samples). A
/// run of samples × N² × this beyond the machine's memory would end in the out-of-memory killer, not an error line.
inline constexpr double kBytesPerSamplePixel = 40.0;

}  // namespace recon
