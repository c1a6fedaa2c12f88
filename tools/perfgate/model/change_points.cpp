#include "model/change_points.h"

#include "model/stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace perfgate {

std::vector<ChangePoint> detect_change_points(const std::vector<double>& values, double min_shift, double alpha,
                                              size_t window, size_t min_segment) {
  min_segment = std::max<size_t>(min_segment, 1);
  window = std::max(window, min_segment);
  const size_t n = values.size();
  if (n < 2 * min_segment) return {};
  const double tried = static_cast<double>(n - 2 * min_segment + 1);
  std::vector<ChangePoint> candidates;
  for (size_t i = min_segment; i + min_segment <= n; ++i) {
    const size_t from = i >= window ? i - window : 0, to = std::min(n, i + window);
    const std::vector<double> left(values.begin() + static_cast<std::ptrdiff_t>(from),
                                   values.begin() + static_cast<std::ptrdiff_t>(i));
    const std::vector<double> right(values.begin() + static_cast<std::ptrdiff_t>(i),
                                    values.begin() + static_cast<std::ptrdiff_t>(to));
    ChangePoint c{i, stats::quantile(left, 0.5), stats::quantile(right, 0.5),
                  std::min(1.0, stats::mann_whitney_p(left, right) * tried)};
    const double shift = c.before != 0.0 ? std::abs(c.after / c.before - 1.0) : std::abs(c.after - c.before);
    if (c.p_value < alpha && shift >= min_shift) candidates.push_back(c);
  }
  // Most significant first; a candidate within min_segment of one already taken is the same change.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const ChangePoint& a, const ChangePoint& b) { return a.p_value < b.p_value; });
  std::vector<ChangePoint> found;
  for (const auto& c : candidates) {
    const bool near_taken = std::any_of(found.begin(), found.end(), [&](const ChangePoint& f) {
      return (c.index > f.index ? c.index - f.index : f.index - c.index) < min_segment;
    });
    if (!near_taken) found.push_back(c);
  }
  std::sort(found.begin(), found.end(), [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  return found;
}

std::pair<size_t, size_t> runs_around(const ChangePoint& c) {
  if (c.index == 0) throw std::invalid_argument("runs_around: a change point cannot be the first run");
  return {c.index - 1, c.index};
}

}  // namespace perfgate
