#pragma once
// A/A calibration: how much a benchmark moves between identical runs on this machine, what tolerance keeps false
// alarms rare, and which slowdown can be told from noise. Pure: the command runs the benchmarks.
#include "model/results.h"
#include "model/speedup.h"

#include <optional>
#include <string>
#include <vector>

namespace perfgate {

struct CalibrationOptions {
  std::string field = "real_time";
  double false_alarm_rate = 0.01;  ///< one-sided α of a base-vs-head comparison of two runs
  double power = 0.9;              ///< detection probability the smallest detectable slowdown is quoted at
  std::optional<std::pair<std::string, std::string>> pair;  ///< (reference, candidate): also calibrate their speedup
  double threshold = 0.0;                                   ///< the speedup gate's threshold, judged per run when > 0
};

struct BenchmarkNoise {
  std::string benchmark, unit;
  size_t runs = 0;
  double median = 0.0;             ///< median of the runs' medians
  double between_run_sigma = 0.0;  ///< robust standard deviation of log(run median)
  double within_run_cv = 0.0;      ///< median over runs of the repetitions' robust sigma / median (0: one repetition)
  double suggested_tolerance =
      0.0;  ///< relative: exp(z(1−α)·σ·√2) − 1, the A/A false-alarm rate of a 2-run comparison ≈ α
  double detectable_slowdown = 0.0;  ///< relative: exp((z(1−α) + z(power))·σ·√2) − 1
  /// relative: the band `update --track FIELD:lower:noise` would learn from these runs (noise_band.h, its defaults)
  double noise_band = 0.0;
  std::vector<std::string> flags;  ///< "bimodal", "unstable"
};

struct SpeedupNoise {
  std::vector<SpeedupReport> runs;             ///< each run's paired verdict against the threshold
  double median = 0.0, low = 0.0, high = 0.0;  ///< median, smallest and largest of the runs' median speedups
  double sigma = 0.0;                          ///< robust standard deviation of log(run speedup)
  int passes = 0, fails = 0, inconclusive = 0;
};

struct Calibration {
  std::vector<BenchmarkNoise> benchmarks;
  std::optional<SpeedupNoise> speedup;
};

/// Needs at least 3 runs (InputError otherwise); a benchmark missing from some runs is calibrated on the others
/// when it has 3, and left out otherwise.
Calibration calibrate(const std::vector<Results>& runs, const CalibrationOptions& options);

/// Two clusters: split at the largest gap between sorted values with at least 20 % on each side; bimodal when that
/// gap exceeds 4 robust sigmas of both sides (and each side is itself tight).
bool looks_bimodal(std::vector<double> values);

}  // namespace perfgate
