#include "recon/aperture.h"

#include "disc_draw_count.h"
#include "recon/limits.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>

namespace recon {
namespace {

std::atomic<int64_t> discs_drawn_so_far{0};

void check_grid(int64_t n, double radius) {
  if (n <= 0) throw std::invalid_argument("aperture: grid size = " + std::to_string(n) + ", must be > 0");
  if (const auto why = radius_refusal(radius, n); !why.empty()) throw std::invalid_argument("aperture: radius " + why);
}

// The reference computes (int64 coordinate − float centre) in float32; doing the same keeps every boundary
// pixel of a sub-pixel disc identical to PRISM's mask.
at::Tensor centred_coordinate(int64_t n, c10::Device device) {
  return (at::arange(n, at::TensorOptions().dtype(at::kLong).device(device)) - n / 2).to(at::kFloat);
}

}  // namespace

at::Tensor disc_mask(int64_t n, Center center, double radius, c10::Device device) {
  check_grid(n, radius);
  discs_drawn_so_far.fetch_add(1, std::memory_order_relaxed);
  auto coord = centred_coordinate(n, device);
  auto dx = (coord - static_cast<float>(center.x)).pow(2).view({1, n});
  auto dy = (coord - static_cast<float>(center.y)).pow(2).view({n, 1});
  return (dx + dy) <= static_cast<float>(radius * radius);
}

at::Tensor union_mask(int64_t n, const std::vector<Center>& centers, double radius, c10::Device device) {
  check_grid(n, radius);
  auto mask = at::zeros({n, n}, at::TensorOptions().dtype(at::kBool).device(device));
  for (const auto& c : centers) mask.logical_or_(disc_mask(n, c, radius, device));
  return mask;
}

PixelBox disc_bounding_box(int64_t n, Center center, double radius) {
  check_grid(n, radius);
  // One extra pixel on each side covers float32 rounding at the boundary; clipping keeps it inside the grid.
  auto lo = [&](double c) { return std::clamp<int64_t>(static_cast<int64_t>(std::floor(c - radius)) - 1 + n / 2, 0, n); };
  auto hi = [&](double c) { return std::clamp<int64_t>(static_cast<int64_t>(std::ceil(c + radius)) + 2 + n / 2, 0, n); };
  return PixelBox{lo(center.y), hi(center.y), lo(center.x), hi(center.x)};
}

namespace detail {
int64_t discs_drawn() { return discs_drawn_so_far.load(std::memory_order_relaxed); }
}  // namespace detail

}  // namespace recon
