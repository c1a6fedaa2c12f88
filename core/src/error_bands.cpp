#include "recon/error_bands.h"

#include "recon/fourier.h"
#include "recon/metrics.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <stdexcept>

namespace recon {
namespace {

// The index map of a real object's conjugate symmetry on the centred grid: (i, j) ↔ ((N − i) mod N, (N − j) mod N)
// for even N, which pairs the Nyquist row and column with themselves; (N − 1 − i, N − 1 − j) for odd N.
at::Tensor mirrored(const at::Tensor& mask) {
  const auto flipped = at::flip(mask, {0, 1});
  return mask.size(0) % 2 == 0 ? at::roll(flipped, {1, 1}, {0, 1}) : flipped;
}

std::complex<double> correlation(const at::Tensor& estimate, const at::Tensor& truth, const at::Tensor& mask) {
  const auto sum = (estimate * at::conj(truth)).masked_select(mask).sum();
  return {at::real(sum).item<double>(), at::imag(sum).item<double>()};
}

}  // namespace

std::vector<PhaseRegion> phase_ambiguity_regions(int64_t n, const std::vector<Center>& centers, double radius) {
  const size_t k = centers.size();
  std::vector<Center> all = centers;  // discs 0..k−1, then their mirrors k..2k−1
  for (const auto& c : centers) all.push_back(Center{-c.y, -c.x});
  std::vector<at::Tensor> masks;
  for (const auto& c : centers) masks.push_back(disc_mask(n, c, radius));
  for (size_t i = 0; i < k; ++i) masks.push_back(mirrored(masks[i]));
  std::vector<size_t> parent(masks.size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  const auto root = [&parent](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  // Discs further apart than 2r + 2, the grid's period allowed for, share no pixel; the masks decide the others.
  const auto apart = [n, radius](const Center& a, const Center& b) {
    const auto wrapped = [n](double d) { return std::min(std::abs(d), static_cast<double>(n) - std::abs(d)); };
    return std::hypot(wrapped(a.y - b.y), wrapped(a.x - b.x)) > 2.0 * radius + 2.0;
  };
  for (size_t i = 0; i < masks.size(); ++i) {
    for (size_t j = i + 1; j < masks.size(); ++j) {
      if (root(i) == root(j) || apart(all[i], all[j])) continue;
      if (at::logical_and(masks[i], masks[j]).any().item<bool>()) parent[root(i)] = root(j);
    }
  }
  std::vector<PhaseRegion> regions;
  std::vector<bool> done(masks.size(), false);
  for (size_t i = 0; i < k; ++i) {
    const size_t region = root(i), mirror = root(i + k);
    if (done[region]) continue;
    done[region] = done[mirror] = true;
    const auto members = [&](size_t r) {
      auto m = at::zeros({n, n}, at::kBool);
      for (size_t j = 0; j < masks.size(); ++j) {
        if (root(j) == r) m = at::logical_or(m, masks[j]);
      }
      return m;
    };
    regions.push_back({members(region), region == mirror ? at::Tensor() : members(mirror)});
  }
  return regions;
}

double ErrorBands::unmeasured_fraction() const {
  const double total = measured + unmeasured;
  return total > 0.0 ? unmeasured / total : 0.0;
}

double ErrorBands::disc_phase_fraction() const {
  const double total = measured + unmeasured;
  return total > 0.0 ? disc_phase / total : 0.0;
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
  const auto estimate_spectrum = fft2c(estimate.to(at::kDouble) * window);
  const auto truth_spectrum = fft2c(truth.to(at::kDouble) * window);
  const auto energy = at::abs(estimate_spectrum - truth_spectrum).pow(2);
  const auto discs = union_mask(n, centers, radius);
  const auto inside = at::logical_or(discs, mirrored(discs));  // the conjugate half of a real object
  ErrorBands bands;
  bands.measured = energy.masked_select(inside).sum().item<double>();
  bands.unmeasured = energy.masked_select(inside.logical_not()).sum().item<double>();  // never below 0 by rounding
  // |e^{iφ}R − G|² = |R|² + |G|² − 2 Re(e^{iφ} R G*): a rotation by φ on a region and −φ on its mirror raises the
  // cross term from Re(a + b) to Re(e^{iφ}(a + b*)), at most |a + b*|, with a and b the sums of R G* over the two.
  for (const auto& region : phase_ambiguity_regions(n, centers, radius)) {
    const auto a = correlation(estimate_spectrum, truth_spectrum, region.mask);
    if (region.mirror.defined()) {
      const auto b = correlation(estimate_spectrum, truth_spectrum, region.mirror);
      bands.disc_phase += 2.0 * std::max(0.0, std::abs(a + std::conj(b)) - (a + b).real());
    } else {
      bands.disc_phase += 2.0 * std::max(0.0, std::abs(a.real()) - a.real());  // φ = π: the sign
    }
  }
  return bands;
}

}  // namespace recon
