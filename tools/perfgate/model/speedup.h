#pragma once
// The paired speedup verdict: reference vs candidate timings measured interleaved in one run.
#include "model/results.h"

#include <string>
#include <vector>

namespace perfgate {

enum class SpeedupVerdict { pass, fail, inconclusive };

struct SpeedupReport {
  int pairs = 0;
  double median = 0.0;           ///< median of per-repetition ratios reference / candidate
  double low = 0.0, high = 0.0;  ///< distribution-free interval of that median
  double confidence = 0.0;
  double threshold = 0.0;
  SpeedupVerdict verdict = SpeedupVerdict::inconclusive;
  std::vector<double> ratios;                            ///< the paired per-repetition ratios, in repetition order
  std::vector<double> reference_times, candidate_times;  ///< their real_time values, same order
  std::string unit;                                      ///< time unit of those values
};

/// Pairs the repetitions of `reference` and `candidate` (field real_time) by repetition index, so each ratio
/// compares runs made next to each other in time. PASS when the whole interval is ≥ threshold, FAIL when it is
/// wholly below, INCONCLUSIVE otherwise. Times are converted to the reference's time unit. Throws InputError with
/// fewer than 6 pairs (no 95 % interval exists), a real_time of 0, a threshold that is not a positive number or a
/// confidence outside (0, 1).
SpeedupReport judge_speedup(const Results& results, const std::string& reference, const std::string& candidate,
                            double threshold, double confidence = 0.95);

std::string to_string(SpeedupVerdict v);
/// The verdict against an aim (a threshold that is reported, never gated): "reached", "not reached" or
/// "not decided" — words, not PASS/FAIL, so that nobody reads an aim as the gate's verdict.
std::string aim_status(SpeedupVerdict v);

}  // namespace perfgate
