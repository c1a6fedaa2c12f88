#include "model/calibrate.h"

#include "base/error.h"
#include "model/compare.h"
#include "model/noise_band.h"
#include "model/stats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace perfgate {

bool looks_bimodal(std::vector<double> values) {
  if (values.size() < 10) return false;
  std::sort(values.begin(), values.end());
  const size_t min_side = (values.size() + 4) / 5;
  size_t split = 0;
  double gap = 0.0;
  for (size_t i = min_side; i + min_side <= values.size(); ++i) {
    if (values[i] - values[i - 1] > gap) gap = values[i] - values[i - 1], split = i;
  }
  if (split == 0) return false;
  const std::vector<double> left(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(split));
  const std::vector<double> right(values.begin() + static_cast<std::ptrdiff_t>(split), values.end());
  const double spread = std::max(stats::robust_sigma(left), stats::robust_sigma(right));
  return gap > 4.0 * spread && spread > 0.0;
}

Calibration calibrate(const std::vector<Results>& runs, const CalibrationOptions& options) {
  if (runs.size() < 3)
    throw InputError("calibrate: " + std::to_string(runs.size()) + " run(s); A/A calibration needs at least 3");
  if (!(options.false_alarm_rate > 0.0 && options.false_alarm_rate < 0.5))
    throw InputError("calibrate: --false-alarm-rate must be in (0, 0.5)");
  if (!(options.power > 0.0 && options.power < 1.0)) throw InputError("calibrate: --power must be in (0, 1)");
  const double z_alpha = stats::normal_quantile(1.0 - options.false_alarm_rate),
               z_power = stats::normal_quantile(options.power);

  std::vector<std::string> order;
  std::map<std::string, std::string> units;
  for (const auto& r : runs)
    for (const auto& m : r.measurements)
      if (m.field == options.field && units.emplace(m.benchmark, m.unit).second) order.push_back(m.benchmark);
  if (order.empty()) throw InputError("calibrate: no benchmark reports '" + options.field + "' in the runs given");

  std::vector<MeasurementIndex> indices;
  indices.reserve(runs.size());
  for (const auto& r : runs) indices.emplace_back(r);
  Calibration out;
  for (const auto& name : order) {
    std::vector<double> log_medians, cvs, normalised;
    std::vector<double> medians;
    for (const auto& index : indices) {
      const auto values = index.values_in_unit(name, options.field, units[name]);  // one unit across runs
      if (values.empty()) continue;
      const double m = median(values);
      if (!(m > 0.0)) continue;
      medians.push_back(m);
      log_medians.push_back(std::log(m));
      if (values.size() > 1) cvs.push_back(stats::robust_sigma(values) / m);
      for (const double v : values) normalised.push_back(v / m);
    }
    if (medians.size() < 3) continue;
    BenchmarkNoise n;
    n.benchmark = name;
    n.unit = units[name];
    n.runs = medians.size();
    n.median = median(medians);
    n.between_run_sigma = stats::robust_sigma(log_medians);
    n.within_run_cv = cvs.empty() ? 0.0 : median(cvs);
    const double comparison_sigma = n.between_run_sigma * std::sqrt(2.0);
    n.suggested_tolerance = std::exp(z_alpha * comparison_sigma) - 1.0;
    n.detectable_slowdown = std::exp((z_alpha + z_power) * comparison_sigma) - 1.0;
    n.noise_band = noise_band(medians, NoiseRule{}, Direction::lower, "calibrate: " + name).tolerance;
    if (looks_bimodal(normalised)) n.flags.push_back("bimodal");
    if (n.between_run_sigma > 0.10 || n.within_run_cv > 0.10) n.flags.push_back("unstable");
    out.benchmarks.push_back(n);
  }

  if (options.pair) {
    SpeedupNoise s;
    std::vector<double> speedups, logs;
    for (const auto& r : runs) {
      const auto report = judge_speedup(r, options.pair->first, options.pair->second,
                                        options.threshold > 0.0 ? options.threshold : 1.0);
      s.runs.push_back(report);
      speedups.push_back(report.median);
      logs.push_back(std::log(report.median));
      if (options.threshold > 0.0) {
        (report.verdict == SpeedupVerdict::pass   ? s.passes
         : report.verdict == SpeedupVerdict::fail ? s.fails
                                                  : s.inconclusive) += 1;
      }
    }
    s.median = median(speedups);
    s.low = *std::min_element(speedups.begin(), speedups.end());
    s.high = *std::max_element(speedups.begin(), speedups.end());
    s.sigma = stats::robust_sigma(logs);
    out.speedup = s;
  }
  return out;
}

}  // namespace perfgate
