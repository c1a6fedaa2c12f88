#pragma once
// The paired speedup as a baselined series: each run's speedup and interval written as results (so that history
// records it and update can baseline it), and judged against the baselined speedup minus its tolerance. Pure.
#include "model/baseline.h"
#include "model/results.h"
#include "model/speedup.h"

#include <optional>
#include <string>

namespace perfgate {

/// The run name under which a pair's speedup is recorded: "speedup:<candidate>/<reference>".
std::string speedup_series_name(const std::string& reference, const std::string& candidate);

/// Google Benchmark JSON text with one iteration run, named speedup_series_name(), whose counters are speedup
/// (the median paired ratio, unit x), speedup_low, speedup_high (its interval) and pairs; the context is the
/// measured results' string context.
std::string speedup_results_text(const SpeedupReport& report, const Results& measured, const std::string& reference,
                                 const std::string& candidate);

struct SeriesVerdict {
  double baseline = 0.0;  ///< the baselined speedup
  double limit = 0.0;     ///< the lowest acceptable speedup: the band's lower edge, or the entry's limit if higher
  Tolerance tolerance;    ///< the entry's tolerance and hard limit, as baselined
  std::optional<double> hard_limit;
  bool below = false;                             ///< the whole interval lies below `limit`
  bool advisory = false;                          ///< the entry is advisory: `below` is reported, never a failure
  SpeedupVerdict verdict = SpeedupVerdict::pass;  ///< FAIL when below and not advisory
};

/// The run against the baseline entry (speedup_series_name(), field "speedup", direction higher, unit "x" or
/// empty): below when the whole interval lies under the entry's band or under its limit (the speedup is lower
/// than the baselined one beyond its tolerance, with the interval's confidence). Throws InputError when the
/// baseline has no such entry, or the entry is not higher-is-better or has another unit.
SeriesVerdict judge_against_baseline(const SpeedupReport& report, const Baseline& baseline,
                                     const std::string& series_name);

}  // namespace perfgate
