#include "model/noise_band.h"

#include "base/error.h"
#include "base/number_format.h"
#include "base/time_units.h"
#include "model/stats.h"

#include <algorithm>
#include <cmath>

namespace perfgate {

NoiseBand noise_band(const std::vector<double>& runs, const NoiseRule& rule, Direction direction,
                     const std::string& what) {
  if (static_cast<int>(runs.size()) < rule.minimum_runs) {
    throw InputError(what + ": a tolerance from noise needs at least " + std::to_string(rule.minimum_runs) +
                     " runs, and " + std::to_string(runs.size()) + " hold it");
  }
  std::vector<double> logs;
  for (const double v : runs) {
    if (!(std::isfinite(v) && v > 0.0))
      throw InputError(what + ": a run measured " + format_number(v) + ", and a band from noise needs values > 0");
    logs.push_back(std::log(v));
  }
  const double n = static_cast<double>(logs.size());
  double mean = 0.0;
  for (const double l : logs) mean += l / n;
  double squares = 0.0;
  for (const double l : logs) squares += (l - mean) * (l - mean);
  NoiseBand band;
  band.runs = static_cast<int>(logs.size());
  band.centre = std::exp(mean);
  band.sigma = std::sqrt(squares / (n - 1.0));
  const bool both = direction == Direction::either;
  const double alpha = both ? rule.false_alarm_rate / 2.0 : rule.false_alarm_rate;
  const double t = stats::student_t_quantile(1.0 - alpha, band.runs - 1);
  const double width = t * band.sigma * std::sqrt(1.0 + 1.0 / n);  // on the logs
  // The rel band that holds centre · e^±width on the failing side: above it for lower (and either, whose lower edge
  // the same rel then puts a little further out), below it for higher.
  const double learned = direction == Direction::higher ? -std::expm1(-width) : std::expm1(width);
  band.floored = learned < rule.floor;
  band.tolerance = std::max(rule.floor, learned);
  band.factor = direction == Direction::higher ? 1.0 / (1.0 - band.tolerance) : 1.0 + band.tolerance;
  return band;
}

int judge_by_history(Baseline& baseline, const std::function<std::vector<double>(const Entry&)>& history,
                     const HistoryRule& rule, const std::string& origin) {
  int judged = 0;
  for (auto& e : baseline.entries) {
    if (!is_time_unit(e.unit)) continue;
    const auto runs = history(e);
    if (static_cast<int>(runs.size()) < rule.minimum_runs) continue;
    const auto band = noise_band(runs, rule.noise, e.direction, e.benchmark + " " + e.field);
    e.value = band.centre;
    e.integer = std::nullopt;
    e.tolerance = Tolerance{Tolerance::Kind::rel, band.tolerance, NoiseOrigin{band.runs, band.sigma, origin}};
    e.judged_here = true;
    ++judged;
  }
  return judged;
}

}  // namespace perfgate
