#include "recon/sampling.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace recon {
namespace {

constexpr double kPi = 3.14159265358979323846;
// PRISM's golden angle is 137.508°, not the exact 137.5078°; kept so that centres match its masks.
constexpr double kFermatAngleDegrees = 137.508;

// Uniform doubles in [0, 1) from the top 53 bits of mt19937_64: unlike std::uniform_real_distribution, the
// sequence is fixed by the seed alone, whatever the standard library.
class SeededUniform {
 public:
  explicit SeededUniform(uint64_t seed) : engine_(seed) {}
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Box–Muller; deterministic for the same reason.
  double normal() {
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
  }

 private:
  std::mt19937_64 engine_;
};

void sort_by_radius(std::vector<Center>& centers) {
  std::stable_sort(centers.begin(), centers.end(), [](const Center& a, const Center& b) {
    return a.y * a.y + a.x * a.x < b.y * b.y + b.x * b.x;
  });
}

// Same operations in float32 on LibTorch, in the same order as PRISM's generator, so the centres agree bit for bit.
std::vector<Center> fermat(const PatternOptions& o) {
  const double phi0 = kFermatAngleDegrees * kPi / 180.0;
  const double c = o.r_max / std::sqrt(static_cast<double>(o.samples));
  auto n = at::arange(o.samples, at::kLong);
  auto r = at::sqrt(n.to(at::kFloat)) * c;
  auto theta = n.to(at::kFloat) * phi0;
  auto y = (r * at::sin(theta)).contiguous();
  auto x = (r * at::cos(theta)).contiguous();
  std::vector<Center> out(static_cast<size_t>(o.samples));
  for (int64_t i = 0; i < o.samples; ++i) {
    out[static_cast<size_t>(i)] = {y.data_ptr<float>()[i], x.data_ptr<float>()[i]};
  }
  return out;
}

std::vector<Center> random_disc(const PatternOptions& o) {
  SeededUniform rng(o.seed);
  std::vector<Center> out;
  for (int64_t i = 0; i < o.samples; ++i) {
    const double r = o.r_max * std::sqrt(rng.uniform());
    const double t = 2.0 * kPi * rng.uniform();
    out.push_back({r * std::sin(t), r * std::cos(t)});
  }
  // As in PRISM, the largest-radius draw is moved to DC so that the first sample sees the low frequencies.
  auto far = std::max_element(out.begin(), out.end(), [](const Center& a, const Center& b) {
    return a.y * a.y + a.x * a.x < b.y * b.y + b.x * b.x;
  });
  *far = Center{0.0, 0.0};
  sort_by_radius(out);
  return out;
}

std::vector<Center> rings(const PatternOptions& o) {
  std::vector<Center> out{{0.0, 0.0}};
  const int64_t remaining = o.samples - 1;
  if (remaining == 0) return out;
  const int64_t n_rings = std::max<int64_t>(1, static_cast<int64_t>(std::lround(std::sqrt(remaining / 3.0))));
  // Points per ring proportional to its radius (ring k has weight k), so neighbours are about equally spaced.
  const int64_t weight_total = n_rings * (n_rings + 1) / 2;
  int64_t placed = 0;
  for (int64_t k = 1; k <= n_rings; ++k) {
    const int64_t count = (k == n_rings) ? remaining - placed : remaining * k / weight_total;
    const double radius = o.r_max * static_cast<double>(k) / static_cast<double>(n_rings);
    for (int64_t j = 0; j < count; ++j) {
      const double t = 2.0 * kPi * static_cast<double>(j) / static_cast<double>(count) + 0.5 * static_cast<double>(k);
      out.push_back({radius * std::sin(t), radius * std::cos(t)});
    }
    placed += count;
  }
  return out;
}

std::vector<Center> jittered(const PatternOptions& o) {
  SeededUniform rng(o.seed);
  // Grow the grid until enough nodes fall inside the disc, then keep the innermost `samples` of them.
  for (int64_t side = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(o.samples))));; ++side) {
    const double spacing = 2.0 * o.r_max / static_cast<double>(side);
    std::vector<Center> nodes;
    for (int64_t i = 0; i < side; ++i) {
      for (int64_t j = 0; j < side; ++j) {
        const double y = -o.r_max + (static_cast<double>(i) + 0.5) * spacing + 0.1 * spacing * rng.normal();
        const double x = -o.r_max + (static_cast<double>(j) + 0.5) * spacing + 0.1 * spacing * rng.normal();
        if (y * y + x * x <= o.r_max * o.r_max) nodes.push_back({y, x});
      }
    }
    if (static_cast<int64_t>(nodes.size()) >= o.samples) {
      sort_by_radius(nodes);
      nodes.resize(static_cast<size_t>(o.samples));
      return nodes;
    }
  }
}

std::vector<Center> star(const PatternOptions& o) {
  std::vector<Center> out{{0.0, 0.0}};
  const int64_t remaining = o.samples - 1;
  const int64_t per_arm = (remaining + o.star_arms - 1) / o.star_arms;
  for (int64_t step = 1; static_cast<int64_t>(out.size()) < o.samples; ++step) {
    const double radius = o.r_max * static_cast<double>(step) / static_cast<double>(std::max<int64_t>(per_arm, 1));
    for (int64_t a = 0; a < o.star_arms && static_cast<int64_t>(out.size()) < o.samples; ++a) {
      const double t = kPi * static_cast<double>(a) / static_cast<double>(o.star_arms) * 2.0;
      out.push_back({radius * std::sin(t), radius * std::cos(t)});
    }
  }
  return out;
}

}  // namespace

std::vector<Center> sample_centers(const PatternOptions& o) {
  if (o.samples < 1) throw std::invalid_argument("PatternOptions::samples = " + std::to_string(o.samples) + ", must be >= 1");
  if (!(o.r_max >= 0.0)) throw std::invalid_argument("PatternOptions::r_max = " + std::to_string(o.r_max) + ", must be >= 0");
  if (o.star_arms < 1) throw std::invalid_argument("PatternOptions::star_arms = " + std::to_string(o.star_arms) + ", must be >= 1");
  switch (o.kind) {
    case PatternKind::fermat: return fermat(o);
    case PatternKind::random: return random_disc(o);
    case PatternKind::rings: return rings(o);
    case PatternKind::jittered: return jittered(o);
    case PatternKind::star: return star(o);
  }
  throw std::invalid_argument("PatternOptions::kind: unknown pattern");
}

}  // namespace recon
