#include "recon/metrics.h"
#include "recon/limits.h"
#include "recon/object_box.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace recon {
namespace {

constexpr double kSsimSigma = 1.5;
constexpr std::array<double, 5> kMsSsimWeights = {0.0448, 0.2856, 0.3001, 0.2363, 0.1333};

void check_same_shape(const at::Tensor& a, const at::Tensor& b) {
  if (!a.sizes().equals(b.sizes())) throw std::invalid_argument("metrics: the two images differ in shape");
}

at::Tensor as_nchw(const at::Tensor& x) {
  if (x.dim() == 2) return x.view({1, 1, x.size(0), x.size(1)});
  if (x.dim() == 4) return x;
  throw std::invalid_argument("ssim: expected [H, W] or [B, C, H, W]");
}

at::Tensor gaussian_window(const at::Tensor& like) {
  auto t = at::arange(kSsimWindow, like.options()) - static_cast<double>(kSsimWindow / 2);
  auto g = at::exp(-(t * t) / (2.0 * kSsimSigma * kSsimSigma));
  return g / g.sum();
}

// Separable depthwise Gaussian filter after reflect padding (mirror without repeating the edge pixel).
at::Tensor filter(const at::Tensor& x, const at::Tensor& g) {
  const int64_t c = x.size(1);
  const int64_t pad = kSsimWindow / 2;
  auto padded = at::reflection_pad2d(x, {pad, pad, pad, pad});
  auto gy = g.view({1, 1, kSsimWindow, 1}).expand({c, 1, kSsimWindow, 1}).contiguous();
  auto gx = g.view({1, 1, 1, kSsimWindow}).expand({c, 1, 1, kSsimWindow}).contiguous();
  const at::Tensor no_bias;
  const std::vector<int64_t> one = {1, 1}, zero = {0, 0};
  return at::conv2d(at::conv2d(padded, gy, no_bias, one, zero, one, c), gx, no_bias, one, zero, one, c);
}

struct SsimTerms {
  at::Tensor luminance;          // (2μaμb + C1) / (μa² + μb² + C1)
  at::Tensor contrast_structure;  // (2σab + C2) / (σa² + σb² + C2)
};

SsimTerms ssim_terms(const at::Tensor& a, const at::Tensor& b, double data_range) {
  const auto g = gaussian_window(a);
  const double c1 = std::pow(0.01 * data_range, 2), c2 = std::pow(0.03 * data_range, 2);
  auto mu_a = filter(a, g), mu_b = filter(b, g);
  auto var_a = filter(a * a, g) - mu_a * mu_a;
  auto var_b = filter(b * b, g) - mu_b * mu_b;
  auto cov = filter(a * b, g) - mu_a * mu_b;
  return {(2.0 * mu_a * mu_b + c1) / (mu_a * mu_a + mu_b * mu_b + c1), (2.0 * cov + c2) / (var_a + var_b + c2)};
}

}  // namespace

at::Tensor evaluation_window(const at::Tensor& image, int64_t object_size) {
  const int64_t n = image.size(-1);
  if (object_size < 1 || object_size > n) throw std::invalid_argument("evaluation_window: object size out of range");
  if (object_size == n) return image;
  const int64_t offset = object_box(n, object_size).before + 1;  // PRISM's metric window, one pixel past the box
  const int64_t length = std::min(object_size, n - offset);
  return image.narrow(-2, offset, length).narrow(-1, offset, length);
}

double mse(const at::Tensor& e, const at::Tensor& r) {
  check_same_shape(e, r);
  return (e.to(at::kDouble) - r.to(at::kDouble)).pow(2).mean().item<double>();
}

double mae(const at::Tensor& e, const at::Tensor& r) {
  check_same_shape(e, r);
  return (e.to(at::kDouble) - r.to(at::kDouble)).abs().mean().item<double>();
}

double psnr(const at::Tensor& e, const at::Tensor& r, double data_range) {
  const double m = mse(e, r);
  if (m == 0.0) return std::numeric_limits<double>::infinity();
  return 20.0 * std::log10(data_range / std::sqrt(m));
}

double relative_error(const at::Tensor& e, const at::Tensor& r) {
  check_same_shape(e, r);
  const auto rd = r.to(at::kDouble);
  return (e.to(at::kDouble) - rd).norm().item<double>() / rd.norm().item<double>();
}

double rmse_percent(const at::Tensor& e, const at::Tensor& r) { return 100.0 * relative_error(e, r); }

double cosine_similarity(const at::Tensor& e, const at::Tensor& r) {
  check_same_shape(e, r);
  const auto ed = e.to(at::kDouble).flatten(), rd = r.to(at::kDouble).flatten();
  const double denom = ed.norm().item<double>() * rd.norm().item<double>();
  return denom == 0.0 ? 0.0 : at::dot(ed, rd).item<double>() / denom;
}

double max_abs_difference(const at::Tensor& e, const at::Tensor& r) {
  check_same_shape(e, r);
  return (e.to(at::kDouble) - r.to(at::kDouble)).abs().max().item<double>();
}

at::Tensor ssim(const at::Tensor& a, const at::Tensor& b, double data_range) {
  check_same_shape(a, b);
  if (a.size(-1) < kMinObjectSize || a.size(-2) < kMinObjectSize) {
    throw std::invalid_argument("ssim: a " + std::to_string(a.size(-2)) + "x" + std::to_string(a.size(-1)) + " image is smaller than " +
                                std::to_string(kMinObjectSize) + "x" + std::to_string(kMinObjectSize) + " (reflect padding of the window)");
  }
  const auto t = ssim_terms(as_nchw(a), as_nchw(b), data_range);
  return (t.luminance * t.contrast_structure).mean();
}

at::Tensor ms_ssim(const at::Tensor& a, const at::Tensor& b, double data_range) {
  check_same_shape(a, b);
  auto x = as_nchw(a), y = as_nchw(b);
  std::vector<at::Tensor> values;
  for (size_t scale = 0; scale < kMsSsimWeights.size(); ++scale) {
    // Reflect padding needs more pixels than the half-window; stop before the image gets that small.
    if (std::min(x.size(-1), x.size(-2)) <= kSsimWindow) break;
    const auto t = ssim_terms(x, y, data_range);
    const bool last = scale + 1 == kMsSsimWeights.size();
    values.push_back(last ? (t.luminance * t.contrast_structure).mean() : t.contrast_structure.mean());
    x = at::avg_pool2d(x, {2, 2});
    y = at::avg_pool2d(y, {2, 2});
  }
  if (values.empty()) throw std::invalid_argument("ms_ssim: image smaller than the 11×11 window");
  auto result = at::ones({}, a.options());
  for (size_t i = 0; i < values.size(); ++i) result = result * at::clamp(values[i], 1e-10, 1.0).pow(kMsSsimWeights[i]);
  return result;
}

QualityReport evaluate(const at::Tensor& reconstruction, const at::Tensor& ground_truth, int64_t object_size) {
  const auto e = evaluation_window(reconstruction.detach().squeeze(), object_size).to(at::kDouble);
  const auto r = evaluation_window(ground_truth.detach().squeeze(), object_size).to(at::kDouble);
  QualityReport q;
  q.psnr_db = psnr(e, r);
  q.ssim = ssim(e.to(at::kFloat), r.to(at::kFloat)).item<double>();
  q.mse = mse(e, r);
  q.mae = mae(e, r);
  q.rmse_pct = rmse_percent(e, r);
  q.cosine = recon::cosine_similarity(e, r);
  q.max_abs = max_abs_difference(e, r);
  q.relative_error = relative_error(e, r);
  return q;
}

}  // namespace recon
