#pragma once
// A paired speedup judged once: the verdict of two benchmarks measured interleaved in one run against a threshold;
// when it is INCONCLUSIVE and a benchmark command is given, more repetitions are measured and pooled with the first
// (repetition indices continue) and judged again while the time budget lasts (at most 3 more runs: every further look
// at the data spends a little of the interval's error rate); with a baseline, the speedup is also judged against the
// baselined one. `perfgate speedup` and every speedup gate of `perfgate gate` judge through it.
#include "model/speedup.h"
#include "model/speedup_series.h"

#include <optional>
#include <string>
#include <vector>

namespace perfgate {

struct SpeedupRequest {
  std::string results, reference, candidate;
  double threshold = 0.0, confidence = 0.95, more_seconds = 0.0;  // threshold: the caller's, no default
  bool aim = false;      ///< the threshold is an aim: print reached / not reached, exit 0 (never a verdict)
  std::string baseline;  ///< a baseline with the pair's speedup: also FAIL when the interval lies wholly below it
  std::string out;       ///< write the speedup and its interval here as results (history, update)
  std::vector<std::string> command;  ///< benchmark command that measures more repetitions when inconclusive
  std::string pooled_out;  ///< non-empty: when more was measured, every repetition judged is written here as results
  std::vector<std::string> env = {"CI=1"};  ///< NAME=value added to the environment of the command measuring more
  int warning_exit_code = 0;  ///< exit code when it passed but an advisory baselined series lies below its band
  std::string tree;  ///< the tree whose commit the repetitions measured more record ("": perfgate's working folder)
};

struct SpeedupOutcome {
  SpeedupReport report;                 ///< the last judgement, over every repetition measured
  std::optional<SeriesVerdict> series;  ///< against the baselined speedup, when a baseline was given
  int code = 0;                         ///< 0 pass (or the warning exit code), 1 fail, 3 inconclusive
};

/// Judges, measuring more as the request allows, writes --out and the pooled results through the output discipline,
/// prints the verdict and returns what was judged. Throws InputError for bad input.
SpeedupOutcome judge_speedup_request(const SpeedupRequest& request);

}  // namespace perfgate
