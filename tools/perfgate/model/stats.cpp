#include "model/stats.h"

#include "base/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace perfgate::stats {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) throw InputError("quantile of an empty sample");
  std::sort(v.begin(), v.end());
  const double position = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(position));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (position - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double binomial_half_cdf(int64_t k, int64_t n) {
  if (k < 0) return 0.0;
  double sum = 0.0;
  // log-space binomial coefficients keep n in the hundreds exact enough.
  for (int64_t j = 0; j <= std::min(k, n); ++j) {
    sum += std::exp(std::lgamma(static_cast<double>(n + 1)) - std::lgamma(static_cast<double>(j + 1)) -
                    std::lgamma(static_cast<double>(n - j + 1)) - static_cast<double>(n) * std::log(2.0));
  }
  return std::min(sum, 1.0);
}

Interval median_interval(std::vector<double> v, double confidence) {
  const auto n = static_cast<int64_t>(v.size());
  if (n < 2) throw InputError("median interval needs at least 2 values");
  std::sort(v.begin(), v.end());
  // [v_k, v_{n−1−k}] (0-based) misses the median with probability 2·P(X ≤ k), X ~ Binomial(n, ½): take the
  // largest k that keeps that at most 1 − confidence.
  // The cumulative probability is carried from k to k + 1 (the same terms summed in the same order as
  // binomial_half_cdf), so finding k is linear in n, not quadratic.
  const double log_total = static_cast<double>(n) * std::log(2.0);
  const auto term = [&](int64_t j) {
    return std::exp(std::lgamma(static_cast<double>(n + 1)) - std::lgamma(static_cast<double>(j + 1)) -
                    std::lgamma(static_cast<double>(n - j + 1)) - log_total);
  };
  double cdf = term(0);
  if (2.0 * cdf > 1.0 - confidence) {
    throw InputError("median interval: " + std::to_string(n) + " values are too few for the requested confidence");
  }
  int64_t k = 0;
  while (k + 1 < n - 2 - k) {
    const double next = std::min(cdf + term(k + 1), 1.0);
    if (2.0 * next > 1.0 - confidence) break;
    cdf = next;
    ++k;
  }
  Interval out;
  out.low = v[static_cast<size_t>(k)];
  out.high = v[static_cast<size_t>(n - 1 - k)];
  out.confidence = 1.0 - 2.0 * cdf;
  return out;
}

double hodges_lehmann(const std::vector<double>& d) {
  if (d.empty()) throw InputError("Hodges-Lehmann estimate of an empty sample");
  std::vector<double> walsh;
  for (size_t i = 0; i < d.size(); ++i)
    for (size_t j = i; j < d.size(); ++j) walsh.push_back(0.5 * (d[i] + d[j]));
  return quantile(walsh, 0.5);
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) throw InputError("Mann-Whitney test needs two non-empty samples");
  const double n1 = static_cast<double>(a.size()), n2 = static_cast<double>(b.size());
  std::vector<std::pair<double, int>> all;
  for (double x : a) all.emplace_back(x, 0);
  for (double x : b) all.emplace_back(x, 1);
  std::sort(all.begin(), all.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  // Mid-ranks for ties, and the tie term Σ(t³ − t) of the variance correction.
  double rank_sum_a = 0.0, tie_term = 0.0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j + 1 < all.size() && all[j + 1].first == all[i].first) ++j;
    const double mid_rank = 0.5 * static_cast<double>(i + j) + 1.0;
    const double t = static_cast<double>(j - i + 1);
    tie_term += t * t * t - t;
    for (size_t k = i; k <= j; ++k) {
      if (all[k].second == 0) rank_sum_a += mid_rank;
    }
    i = j + 1;
  }
  const double u1 = rank_sum_a - n1 * (n1 + 1.0) / 2.0;
  const double n = n1 + n2;
  const double mean = n1 * n2 / 2.0;
  const double variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (variance <= 0.0) return 1.0;
  const double u = std::max(u1, n1 * n2 - u1);
  const double z = (u - mean - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
  std::vector<size_t> order(p.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t l, size_t r) { return p[l] < p[r]; });
  std::vector<double> adjusted(p.size());
  double running = 0.0;
  for (size_t rank = 0; rank < order.size(); ++rank) {
    running = std::max(running, std::min(1.0, static_cast<double>(p.size() - rank) * p[order[rank]]));
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) return std::nan("");
  double low = -40.0, high = 40.0;  // Φ(x) = erfc(−x/√2)/2 is monotone; 200 halvings reach double precision
  for (int i = 0; i < 200 && high - low > 1e-15; ++i) {
    const double mid = 0.5 * (low + high);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

double student_t_cdf(double t, int df) {
  if (df < 1 || std::isnan(t)) return std::nan("");
  // Abramowitz & Stegun 26.7.3 and 26.7.4: P(|T| <= |t|) as a finite sum in cos(θ), θ = atan(|t|/√ν), exact for a
  // whole number of degrees of freedom.
  const double theta = std::atan(std::abs(t) / std::sqrt(static_cast<double>(df)));
  const double c2 = std::cos(theta) * std::cos(theta), s = std::sin(theta);
  double inside = 0.0;
  if (df % 2 == 1) {
    double term = std::cos(theta), sum = df > 1 ? term : 0.0;
    for (int k = 3; k <= df - 2; k += 2) sum += term *= c2 * (k - 1) / k;
    inside = 2.0 / M_PI * (theta + s * sum);
  } else {
    double term = 1.0, sum = 1.0;
    for (int k = 2; k <= df - 2; k += 2) sum += term *= c2 * (k - 1) / k;
    inside = s * sum;
  }
  return t >= 0.0 ? 0.5 + 0.5 * inside : 0.5 - 0.5 * inside;
}

double student_t_quantile(double p, int df) {
  if (!(p > 0.0 && p < 1.0) || df < 1) return std::nan("");
  double low = -1e7, high = 1e7;  // the CDF is monotone; bisection to double precision
  for (int i = 0; i < 400 && high - low > 1e-13 * std::max(1.0, std::abs(low)); ++i) {
    const double mid = 0.5 * (low + high);
    (student_t_cdf(mid, df) < p ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

double robust_sigma(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const double centre = quantile(values, 0.5);
  std::vector<double> deviations;
  for (const double v : values) deviations.push_back(std::abs(v - centre));
  return 1.482602218505602 * quantile(deviations, 0.5);  // 1/Φ⁻¹(3/4)
}

}  // namespace perfgate::stats
