#pragma once
// How far a timing may move before the gate tells a change from noise, learned from repeated runs of it on one
// machine: the band that one more unchanged run falls outside with a chosen probability. The runs are an update's
// captures of the suite, or the last runs of a history store. Pure.
#include "model/baseline.h"

#include <functional>
#include <string>
#include <vector>

namespace perfgate {

/// Why these defaults: docs/decisions/2026-11-29-tolerance-from-noise.md.
struct NoiseRule {
  double false_alarm_rate = 0.01;  ///< the chance that one more unchanged run falls outside the band
  double floor = 0.05;             ///< the narrowest band (relative): what runs close together do not show
  int minimum_runs = 3;            ///< fewer give no estimate of the spread worth a band
};

struct NoiseBand {
  double centre = 0.0;     ///< the runs' geometric mean
  double sigma = 0.0;      ///< sample standard deviation of log(run)
  int runs = 0;            ///< how many runs the band is learned from
  double tolerance = 0.0;  ///< relative; the band is centre × (1 ± tolerance)
  bool floored = false;    ///< the runs' spread gave less than the floor, which applies
};

/// A prediction interval for one more run: log(run) is taken as normal, so one more run's log lies within
/// t(1 − α, n − 1) · s · √(1 + 1/n) of the runs' mean log with probability 1 − α (α split over both sides when
/// `two_sided`). tolerance = max(floor, exp(that) − 1). Each run is one value (a run's median over its repetitions):
/// finite and > 0, at least rule.minimum_runs of them; InputError naming `what` otherwise.
NoiseBand noise_band(const std::vector<double>& runs, const NoiseRule& rule, bool two_sided, const std::string& what);

/// The smallest slowdown a band lets through is 1 + tolerance: above this, a 1.25x slowdown passes and the band is
/// worth a warning.
constexpr double kWideNoiseBand = 0.25;

/// Thresholds learned from history: a timing judged against the last `runs` runs of the same machine on one branch of a
/// history store, when there are at least `minimum_runs` of them. The statistical test is the noise band's (one more
/// run outside the prediction interval of the last runs), and `noise.floor` is the minimum shift that can fail.
struct HistoryRule {
  int runs = 10;
  int minimum_runs = 5;
  NoiseRule noise;
};

/// Gives each entry in a time unit for which `history` returns at least rule.minimum_runs values (the metric's last
/// runs on this machine, oldest first, in the entry's unit) their geometric mean as its value and the band learned from
/// them as its tolerance (NoiseOrigin::history = `origin`), to be judged on this machine (Entry::judged_here); every
/// other entry stays as the baseline has it. Returns how many entries took their threshold from history.
int judge_by_history(Baseline& baseline, const std::function<std::vector<double>(const Entry&)>& history,
                     const HistoryRule& rule, const std::string& origin);

}  // namespace perfgate
