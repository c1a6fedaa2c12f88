#pragma once
/// Circular sub-aperture masks in centred k-space coordinates.
#include <ATen/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <vector>

namespace recon {

/// A sub-aperture centre in k-space pixels relative to DC (index N/2), (y, x) order as in PRISM.
/// Sub-pixel values are allowed and never rounded.
struct Center {
  double y = 0.0;
  double x = 0.0;
};

/// Bool [N, N] mask of the disc (X − cx)² + (Y − cy)² ≤ r², X = i − N/2 for column index i, Y likewise for
/// rows; inclusive test evaluated in float32 like the reference (r = 20 at an integer centre: 1257 pixels).
/// Computed on `device` (the same float32 operations, so the same pixels on every device).
at::Tensor disc_mask(int64_t n, Center center, double radius, c10::Device device = c10::kCPU);

/// Bool [N, N] union (logical OR) of the discs at `centers`; all false when `centers` is empty.
at::Tensor union_mask(int64_t n, const std::vector<Center>& centers, double radius, c10::Device device = c10::kCPU);

/// Half-open index window [row0, row1) × [col0, col1) that contains every pixel of the disc, clipped to the grid.
struct PixelBox {
  int64_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;
  int64_t rows() const { return row1 - row0; }
  int64_t cols() const { return col1 - col0; }
};

/// Bounding box of disc_mask(n, center, radius) in array indices (centred layout).
PixelBox disc_bounding_box(int64_t n, Center center, double radius);

}  // namespace recon
