#pragma once
/// Where the S×S object sits on the N×N grid. One definition for every placement: the prepared ground truth, the
/// decoder's output, both objectives' forward models and ePIE's support must agree to the pixel, or a pipeline fits
/// an object shifted from the one it is scored against (one pixel costs ~10 dB on USAF).

#include <cstdint>

namespace recon {

/// Padding on each side of the object box: PRISM's CropPad, `before` = ⌊(N − S)/2⌋ and `after` the rest, so for odd
/// N − S the box is one pixel nearer the grid's start. (The evaluation window, recon/metrics.h, starts one pixel
/// later, as PRISM's metric does.)
struct ObjectBox {
  int64_t before = 0;
  int64_t after = 0;
};

/// The box of an `object_size` object on a `grid_size` grid; the caller guarantees 0 ≤ object_size ≤ grid_size.
constexpr ObjectBox object_box(int64_t grid_size, int64_t object_size) {
  const int64_t before = (grid_size - object_size) / 2;
  return {before, grid_size - object_size - before};
}

}  // namespace recon
