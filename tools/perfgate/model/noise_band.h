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
  double tolerance = 0.0;  ///< relative, as a baseline's rel tolerance: centre × (1 + tolerance) for lower, ...
  double factor = 1.0;     ///< ... the largest change the band lets pass, as a ratio the bad way (1.25: a 1.25x change)
  bool floored = false;    ///< the runs' spread gave less than the floor, which applies
};

/// A prediction interval for one more run: log(run) is taken as normal, so one more run's log lies within
/// w = t(1 − α, n − 1) · s · √(1 + 1/n) of the runs' mean log with probability 1 − α, on the side where `direction`
/// fails (α split over both sides for either). The tolerance is the rel band that puts its failing edge there:
/// e^w − 1 for lower and either, 1 − e^−w for higher; never below the floor. Each run is one value (a run's median
/// over its repetitions): finite and > 0, at least rule.minimum_runs of them; InputError naming `what` otherwise.
NoiseBand noise_band(const std::vector<double>& runs, const NoiseRule& rule, Direction direction,
                     const std::string& what);

/// A band whose factor reaches this lets a 1.25x change the bad way pass, and is worth a warning.
constexpr double kWideNoiseBand = 1.25;

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
