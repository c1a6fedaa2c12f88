#!/usr/bin/python3
"""Reference values for tools/perfgate/tests/stats_test.cpp, computed with SciPy (run offline; not in the build).

Run: /usr/bin/python3 tools/perfgate/tests/oracle/stats_oracle.py   (Debian: python3-scipy)
"""
import numpy as np
from scipy import optimize, stats

a = [10.2, 11.0, 9.8, 10.5, 12.1, 10.0, 10.0, 11.3]
b = [11.9, 12.4, 12.0, 13.1, 11.7, 12.8, 12.0, 12.2, 14.0]
print("mannwhitney_p", repr(stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic", use_continuity=True).pvalue))
print("quantile_0.3", repr(float(np.quantile(a, 0.3))))
print("binom_cdf_1_10", repr(stats.binom.cdf(1, 10, 0.5)))
print("binom_cdf_8_30", repr(stats.binom.cdf(8, 30, 0.5)))
d = [0.3, -0.1, 0.45, 0.2, 0.05, 0.6, 0.25]
walsh = [(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]
print("hodges_lehmann", repr(float(np.median(walsh))))
p = np.array([0.01, 0.04, 0.03, 0.20])
order = np.argsort(p)
adj = np.empty_like(p)
running = 0.0
for rank, i in enumerate(order):  # Holm (1979), written out: SciPy 1.10 has no multipletests
    running = max(running, min(1.0, (len(p) - rank) * p[i]))
    adj[i] = running
print("holm", [repr(float(x)) for x in adj])
print("norm_ppf", [repr(float(stats.norm.ppf(q))) for q in (0.99, 0.9, 0.5, 0.025)])
print("mad_sigma", repr(float(stats.median_abs_deviation(a, scale="normal"))))
# t.ppf itself is off by up to 1e-9 (its own cdf says so): the root of t.cdf, found to double precision, instead.
print("t_ppf", [repr(float(optimize.brentq(lambda t: stats.t.cdf(t, df) - q, 0, 100, xtol=1e-15, rtol=1e-15)))
                for q, df in ((0.99, 4), (0.99, 9), (0.99, 1), (0.995, 2), (0.99, 30), (0.9, 3))])
for runs, q in (([10, 10.2, 9.9, 10.1, 10.0], 0.99), ([10, 10.2, 9.9, 10.1, 10.0], 0.995), ([10, 11, 9.5, 10.5], 0.99)):
    logs = np.log(runs)  # noise_band: the prediction interval of one more run's log
    s = logs.std(ddof=1)
    print("noise_band", runs, q, repr(float(np.exp(logs.mean()))), repr(float(s)),
          repr(float(np.expm1(stats.t.ppf(q, len(runs) - 1) * s * np.sqrt(1 + 1 / len(runs))))))
