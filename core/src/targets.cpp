#include "recon/targets.h"

#include "recon/object_box.h"

#include <ATen/ATen.h>
#include <torch/nn/functional/upsampling.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace recon {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int64_t kSupersampling = 4;

// Pixel-centre coordinates of a [-1, 1]² square sampled on `n` points per side: [n, 1] and [1, n].
std::pair<at::Tensor, at::Tensor> unit_square(int64_t n) {
  auto t = (at::arange(n, at::kDouble) + 0.5) * (2.0 / static_cast<double>(n)) - 1.0;
  return {t.view({n, 1}), t.view({1, n})};
}

at::Tensor box(const at::Tensor& v, const at::Tensor& u, double v0, double v1, double u0, double u1) {
  return ((v >= v0) & (v < v1) & (u >= u0) & (u < u1)).to(at::kDouble);
}

// Three bars of width w (gap w) in a square of side 5w whose lower-left corner is (v0, u0); `vertical`
// chooses the bar direction.
at::Tensor bar_triplet(const at::Tensor& v, const at::Tensor& u, double v0, double u0, double w, bool vertical) {
  auto img = at::zeros_like(v * u);
  for (int k = 0; k < 3; ++k) {
    const double a = 2.0 * w * k;
    img = img + (vertical ? box(v, u, v0, v0 + 5 * w, u0 + a, u0 + a + w) : box(v, u, v0 + a, v0 + a + w, u0, u0 + 5 * w));
  }
  return img;
}

at::Tensor usaf(const at::Tensor& v, const at::Tensor& u) {
  auto img = at::zeros_like(v * u);
  // Elements shrink by 2^(1/6) as in USAF-1951; pairs (horizontal, vertical) placed along a spiral-like path.
  double w = 0.075;
  double v0 = -0.9, u0 = -0.9;
  for (int element = 0; element < 9; ++element) {
    img = img + bar_triplet(v, u, v0, u0, w, false) + bar_triplet(v, u, v0, u0 + 6 * w, w, true);
    u0 += 12.5 * w;
    if (u0 + 11 * w > 0.95) {
      u0 = -0.9;
      v0 += 6.5 * w;
    }
    w /= std::pow(2.0, 1.0 / 6.0);
  }
  return img.clamp_max(1.0);
}

at::Tensor siemens_star(const at::Tensor& v, const at::Tensor& u) {
  constexpr int kSpokes = 36;
  auto rho = at::sqrt(v * v + u * u);
  auto theta = at::atan2(v, u);
  auto spokes = (at::sin(theta * (kSpokes / 2.0)) >= 0).to(at::kDouble);
  return spokes * (rho <= 0.95).to(at::kDouble) * (rho >= 0.04).to(at::kDouble);
}

at::Tensor planet(const at::Tensor& v, const at::Tensor& u) {
  auto rho2 = v * v + u * u;
  constexpr double kRadius = 0.85;
  auto inside = (rho2 <= kRadius * kRadius).to(at::kDouble);
  auto limb = at::sqrt(at::clamp_min(1.0 - rho2 / (kRadius * kRadius), 0.0)).pow(0.4);
  auto bands = 0.75 + 0.2 * at::sin(v * 14.0) + 0.05 * at::cos(v * 37.0 + u * 3.0);
  auto img = inside * limb * bands;
  const double craters[][3] = {{0.30, -0.20, 0.12}, {-0.40, 0.25, 0.08}, {0.05, 0.45, 0.05}, {-0.15, -0.50, 0.10}};
  for (const auto& c : craters) {
    auto d2 = (v - c[0]) * (v - c[0]) + (u - c[1]) * (u - c[1]);
    img = img * (1.0 - 0.6 * (d2 <= c[2] * c[2]).to(at::kDouble));
  }
  return img;
}

at::Tensor point_sources(const at::Tensor& v, const at::Tensor& u) {
  auto img = at::zeros_like(v * u);
  const double sources[][3] = {{-0.35, -0.30, 1.0}, {0.25, 0.40, 0.8}, {0.45, -0.25, 0.6}, {-0.10, 0.15, 0.4}};
  for (const auto& s : sources) {
    auto d2 = (v - s[0]) * (v - s[0]) + (u - s[1]) * (u - s[1]);
    img = img + s[2] * (d2 <= 0.05 * 0.05).to(at::kDouble);
  }
  return img;
}

at::Tensor uniform_disc(const at::Tensor& v, const at::Tensor& u) {
  return (v * v + u * u <= 1.0).to(at::kDouble);
}

}  // namespace

at::Tensor synthetic_object(TargetKind kind, int64_t object_size) {
  if (object_size < 4) throw std::invalid_argument("synthetic_object: object size = " + std::to_string(object_size) + ", must be >= 4");
  auto [v, u] = unit_square(object_size * kSupersampling);
  at::Tensor fine;
  switch (kind) {
    case TargetKind::usaf: fine = usaf(v, u); break;
    case TargetKind::star: fine = siemens_star(v, u); break;
    case TargetKind::planet: fine = planet(v, u); break;
    case TargetKind::points: fine = point_sources(v, u); break;
    case TargetKind::disc: fine = uniform_disc(v, u); break;
  }
  auto coarse = at::avg_pool2d(fine.view({1, 1, fine.size(0), fine.size(1)}), {kSupersampling, kSupersampling});
  return coarse.view({object_size, object_size}).to(at::kFloat).clamp(0.0, 1.0);
}

at::Tensor prepare_target(const at::Tensor& image, int64_t object_size, int64_t grid_size) {
  if (image.dim() != 2 || image.size(0) < 1 || image.size(1) < 1) {
    throw std::invalid_argument("prepare_target: expected a non-empty [H, W] image");
  }
  if (object_size < 1 || object_size > grid_size) {
    throw std::invalid_argument("prepare_target: object size " + std::to_string(object_size) + " must be in [1, grid " +
                                std::to_string(grid_size) + "]");
  }
  const int64_t h = image.size(0), w = image.size(1);
  // Shorter side to S (torchvision Resize(S) semantics), then a centred S×S crop for non-square inputs.
  const int64_t rh = h <= w ? object_size : static_cast<int64_t>(std::llround(static_cast<double>(h) * object_size / w));
  const int64_t rw = h <= w ? static_cast<int64_t>(std::llround(static_cast<double>(w) * object_size / h)) : object_size;
  namespace F = torch::nn::functional;
  auto resized = F::interpolate(image.to(at::kFloat).view({1, 1, h, w}),
                                F::InterpolateFuncOptions()
                                    .size(std::vector<int64_t>{rh, rw})
                                    .mode(torch::kBilinear)
                                    .align_corners(false)
                                    .antialias(true));
  const int64_t top = (rh - object_size) / 2, left = (rw - object_size) / 2;
  auto cropped = resized.view({rh, rw}).narrow(0, top, object_size).narrow(1, left, object_size);
  // PRISM resizes in uint8: round half to even and saturate, as the conversion back to 8 bits does.
  auto quantised = at::round(cropped).clamp(0.0, 255.0);
  const auto box = object_box(grid_size, object_size);
  auto padded = at::constant_pad_nd(quantised, {box.before, box.after, box.before, box.after}, 0.0);
  auto lo = padded.min();
  auto span = (padded - lo).max();
  if (span.item<float>() <= 0.0f) throw std::invalid_argument("prepare_target: the image is constant; nothing to reconstruct");
  return at::sqrt((padded - lo) / span).contiguous();
}

at::Tensor synthetic_target(TargetKind kind, int64_t object_size, int64_t grid_size) {
  return prepare_target(synthetic_object(kind, object_size) * 255.0, object_size, grid_size);
}

}  // namespace recon
