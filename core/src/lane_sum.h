#pragma once
// Sums in double that vectorise: a single running sum is a dependency chain the compiler must keep in order (no
// -ffast-math here), so the terms go into kLanes interleaved partial sums, added at the end. The result differs
// from the sequential sum by rounding only.
#include <cstdint>

namespace recon::detail {

/// Σ term(i) for i < n, in double.
template <typename Term>
inline double lane_sum(int64_t n, Term term) {
  constexpr int64_t kLanes = 8;
  double lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int64_t lane = 0; lane < kLanes; ++lane) lanes[lane] += static_cast<double>(term(i + lane));
  for (; i < n; ++i) lanes[0] += static_cast<double>(term(i));
  double sum = 0.0;
  for (double lane : lanes) sum += lane;
  return sum;
}

}  // namespace recon::detail
