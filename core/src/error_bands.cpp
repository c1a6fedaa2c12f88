#include "recon/error_bands.h"

#include "recon/fourier.h"
#include "recon/metrics.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace recon {

double ErrorBands::unmeasured_fraction() const {
  const double total = measured + unmeasured;
  return total > 0.0 ? unmeasured / total : 0.0;
}

ErrorBands error_bands(const at::Tensor& reconstruction, const at::Tensor& ground_truth, int64_t object_size,
                       const std::vector<Center>& centers, double radius) {
  const auto estimate = reconstruction.detach().squeeze();
  const auto truth = ground_truth.detach().squeeze();
  if (estimate.dim() != 2 || estimate.size(0) != estimate.size(1) || !estimate.sizes().equals(truth.sizes())) {
    throw std::invalid_argument("error_bands: reconstruction and ground truth must both be [N, N]");
  }
  const int64_t n = estimate.size(0);
  auto window = at::zeros({n, n}, at::kDouble);
  evaluation_window(window, object_size).fill_(1.0);  // the pixels every other metric is evaluated on
  const auto error = (estimate.to(at::kDouble) - truth.to(at::kDouble)) * window;
  const auto energy = at::abs(fft2c(error)).pow(2);
  auto measured_centers = centers;
  for (const auto& c : centers) measured_centers.push_back(Center{-c.y, -c.x});  // the conjugate half of a real object
  const auto inside = union_mask(n, measured_centers, radius);
  ErrorBands bands;
  bands.measured = energy.masked_select(inside).sum().item<double>();
  bands.unmeasured = energy.masked_select(inside.logical_not()).sum().item<double>();  // never below 0 by rounding
  return bands;
}

}  // namespace recon
