#pragma once
// Shared helpers for the core's tests: tensor comparison with explicit tolerances.
#include <ATen/ATen.h>
#include <gtest/gtest.h>

namespace recon::testing {

/// Largest |a − b| relative to max(|b|); the scale-free measure used for gradients and images.
inline double max_relative_difference(const at::Tensor& a, const at::Tensor& b) {
  const auto ad = a.detach().to(at::kDouble), bd = b.detach().to(at::kDouble);
  const double scale = std::max(bd.abs().max().item<double>(), 1e-30);
  return (ad - bd).abs().max().item<double>() / scale;
}

/// Images defined by closed formulas, identical to core/tests/oracle/metrics_oracle.py's image_pair(): b is a with a
/// fine pattern added and, when offset is not 0, brighter by offset (clipped to [0, 1]).
inline std::pair<at::Tensor, at::Tensor> oracle_image_pair(int64_t n, double offset = 0.0) {
  auto i = at::arange(n, at::kDouble).view({n, 1}).expand({n, n});
  auto j = at::arange(n, at::kDouble).view({1, n}).expand({n, n});
  auto a = 0.5 + 0.3 * at::sin(0.37 * i + 0.11 * j) + 0.1 * at::cos(0.05 * i * j);
  auto b = at::clamp(a + 0.15 * at::sin(1.3 * i) * at::cos(0.7 * j) + offset, 0.0, 1.0);
  return {a, b};
}

}  // namespace recon::testing
