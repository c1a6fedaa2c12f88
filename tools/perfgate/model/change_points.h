#pragma once
// Change points in a metric's history: persistent shifts of level, not single noisy points. Pure.
#include <cstddef>
#include <utility>
#include <vector>

namespace perfgate {

struct ChangePoint {
  size_t index = 0;                  ///< first point of the new level
  double before = 0.0, after = 0.0;  ///< medians of the windows on either side
  double p_value = 0.0;              ///< Mann–Whitney p of the two windows, Bonferroni-adjusted over the points tried
};

/// Two-window scan: at each point, the `window` runs before it are compared with the `window` runs from it on
/// (at least `min_segment` on each side near the ends). A point is a change point when its adjusted p-value is below
/// `alpha`, the window medians differ by at least `min_shift` relative to the earlier one, and it is the most
/// significant point within `min_segment` of it. A lone outlier moves neither window's ranks enough; a level that
/// returns (10, 13, 10) gives two change points. Sorted by index.
std::vector<ChangePoint> detect_change_points(const std::vector<double>& values, double min_shift = 0.05,
                                              double alpha = 0.01, size_t window = 10, size_t min_segment = 4);

/// The runs either side of change point `c`, by index into the series it was found in: the last run at the old
/// level and the first at the new one ({c.index − 1, c.index}); the commits a user bisects between.
std::pair<size_t, size_t> runs_around(const ChangePoint& c);

}  // namespace perfgate
