#pragma once
// The limits of a problem the core reconstructs and evaluates, each stated once with its reason, and the one rule
// that applies it: the command line (before anything runs), reconstruct() and ePIE refuse a value outside it in the
// same words, each prefixed with the name the caller knows it by. Free of LibTorch.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

namespace recon {

/// The grid sides N the decoder is built for: powers of two, as its stride-2 doublings need, from 8 (its first layer's
/// 4 × 4 kernel) to 8192 (its N latent channels and about 10.7 N² weights, 2.8 million at N = 512, are 716 million there:
/// 2.9 GB in float32 before Adam's two moments).
inline constexpr int64_t kMinGrid = 8;
inline constexpr int64_t kMaxGrid = 8192;

/// Side of SSIM's Gaussian window (metrics.h); its reflect padding by kSsimWindow / 2 needs a wider image.
inline constexpr int64_t kSsimWindow = 11;

/// The smallest object size S: the evaluation window must be wider than SSIM's reflect padding.
inline constexpr int64_t kMinObjectSize = kSsimWindow / 2 + 1;

/// The smallest sub-aperture radius, in k-space pixels: a narrower pupil holds only the zero frequency, which
/// measures the object's mean and nothing of its structure (every quality metric of such a run is undefined).
inline constexpr double kMinRadius = 1.0;

/// The largest sub-aperture radius, as a multiple of the grid's side N: a pupil of radius N around the zero frequency
/// already holds every frequency of the grid (its farthest corner is N/√2 away), so a wider one measures nothing more
/// and is a radius in the wrong unit. Pupils wider than N/2 are allowed: they are clipped at the grid's edge (nothing
/// wraps), and a whole-grid pupil is the problem whose answer the solvers must reach exactly.
inline constexpr double kMaxRadiusPerGrid = 1.0;

/// Memory a run holds per sample and grid pixel, for its measurements, pupils and their derived targets (measured
/// with `recon reconstruct --steps 0 --init-steps 0`: 33 bytes at N=128 and 38 at N=64, 1,000 to 3,000 samples). A
/// run of samples × N² × this beyond the machine's memory would end in the out-of-memory killer, not an error line.
inline constexpr double kBytesPerSamplePixel = 40.0;

/// `value` as the shortest text that reads back as the same double (a refused 64.0000001 never shows as an allowed 64).
inline std::string shortest_text(double value) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr);
}

/// Why `grid` is not a grid side N, "" when it is one: a power of two in [kMinGrid, kMaxGrid].
inline std::string grid_refusal(int64_t grid) {
  if (grid >= kMinGrid && grid <= kMaxGrid && (grid & (grid - 1)) == 0) return "";
  std::ostringstream why;
  why << grid << ": must be a power of two in [" << kMinGrid << ", " << kMaxGrid << "]";
  return why.str();
}

/// Why `radius` is not a sub-aperture radius on a `grid` × `grid` k-space grid, "" when it is one:
/// kMinRadius <= radius <= kMaxRadiusPerGrid · grid, finite.
inline std::string radius_refusal(double radius, int64_t grid) {
  const double largest = kMaxRadiusPerGrid * static_cast<double>(grid);
  if (std::isfinite(radius) && radius >= kMinRadius && radius <= largest) return "";
  std::ostringstream why;
  why << shortest_text(radius) << ": must be in [" << kMinRadius << ", " << largest << "] k-space pixels on a grid of " << grid
      << " (a narrower pupil measures only the mean; a wider one holds every frequency of the grid already)";
  return why.str();
}

/// Why `object` is not an object size on a `grid` × `grid` grid, "" when it is one: kMinObjectSize <= object <= grid
/// (the evaluation window needs SSIM's padding; the object lies inside the grid).
inline std::string object_size_refusal(int64_t object, int64_t grid) {
  if (object >= kMinObjectSize && object <= grid) return "";
  std::ostringstream why;
  why << object << ": must be in [" << kMinObjectSize << ", grid " << grid << "] (SSIM's window needs " << kMinObjectSize
      << " pixels)";
  return why.str();
}

}  // namespace recon
