#pragma once
// Distribution-free statistics for paired timing comparisons. Pure functions; reference values in the tests come
// from SciPy (tools/perfgate/tests/oracle/stats_oracle.py).
#include <cstdint>
#include <vector>

namespace perfgate::stats {

double quantile(std::vector<double> values, double q);  ///< linear interpolation (NumPy's default); q in [0, 1]

/// An interval with its nominal coverage.
struct Interval {
  double low = 0.0, high = 0.0;
  double confidence = 0.0;  ///< achieved coverage (order-statistic intervals are conservative)
};

/// Distribution-free interval for the median from order statistics (sign-test inversion): the widest ranks
/// [k, n−1−k] whose binomial(n, ½) coverage is still ≥ `confidence`. Needs n ≥ 6 for 95 %.
Interval median_interval(std::vector<double> values, double confidence = 0.95);

/// Hodges–Lehmann estimate of the location of paired differences: the median of the Walsh averages.
double hodges_lehmann(const std::vector<double>& differences);

/// Two-sided Mann–Whitney U test, normal approximation with tie correction and continuity correction (as SciPy's
/// mannwhitneyu(method="asymptotic")). Returns the p-value.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

/// Holm's step-down adjustment of p-values (family-wise error control), in the input order.
std::vector<double> holm_adjust(const std::vector<double>& p_values);

/// The standard normal quantile Φ⁻¹(p) for p in (0, 1), to about 1e-12 (bisection on erfc).
double normal_quantile(double p);

/// Student's t distribution with `df` ≥ 1 degrees of freedom: its CDF, and its quantile for p in (0, 1) (bisection on
/// the CDF, to about 1e-10). NaN outside the domain.
double student_t_cdf(double t, int df);
double student_t_quantile(double p, int df);

/// Robust standard deviation: 1.4826 × the median absolute deviation from the median (SciPy's
/// median_abs_deviation(scale="normal")). 0 for fewer than two values.
double robust_sigma(const std::vector<double>& values);

/// Binomial(n, ½) cumulative probability P(X ≤ k).
double binomial_half_cdf(int64_t k, int64_t n);

}  // namespace perfgate::stats
