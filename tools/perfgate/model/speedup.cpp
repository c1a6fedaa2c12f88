#include "model/speedup.h"

#include "base/error.h"
#include "base/time_units.h"
#include "model/stats.h"

#include <cmath>
#include <map>

namespace perfgate {

SpeedupReport judge_speedup(const Results& results, const std::string& reference, const std::string& candidate,
                            double threshold, double confidence) {
  if (!std::isfinite(threshold) || threshold <= 0.0)
    throw InputError("speedup: the threshold must be a positive number");
  if (!(confidence > 0.0 && confidence < 1.0))
    throw InputError("speedup: the confidence must lie strictly between 0 and 1");
  SpeedupReport report;
  std::map<int, double> ref, cand;
  report.unit = "ns";  // every time in the reference's unit, whatever each run wrote as its time_unit
  for (const auto& m : results.measurements) {
    if (m.field == "real_time" && m.benchmark == reference) {
      report.unit = m.unit;
      break;
    }
  }
  for (const auto& m : results.measurements) {
    if (m.field != "real_time" || (m.benchmark != reference && m.benchmark != candidate)) continue;
    const double t = convert_time(m.value, m.unit, report.unit);
    if (t <= 0.0) {
      throw InputError("speedup: '" + m.benchmark + "' repetition " + std::to_string(m.repetition) + " in " +
                       results.source + " has a real_time of 0; a ratio needs measured times");
    }
    (m.benchmark == reference ? ref : cand)[m.repetition] = t;
  }
  std::vector<double> ratios;
  for (const auto& [rep, r] : ref) {
    const auto c = cand.find(rep);
    if (c == cand.end()) continue;
    if (!std::isfinite(r / c->second)) {
      throw InputError("speedup: repetition " + std::to_string(rep) + " of '" + reference + "' over '" + candidate +
                       "' in " + results.source + " gives a ratio that is not finite");
    }
    ratios.push_back(r / c->second);
    report.reference_times.push_back(r);
    report.candidate_times.push_back(c->second);
  }
  if (ratios.size() < 6) {
    throw InputError("speedup: " + std::to_string(ratios.size()) + " paired repetitions of '" + reference + "' and '" +
                     candidate + "' in " + results.source +
                     "; at least 6 are needed (run with --benchmark_repetitions)");
  }
  report.pairs = static_cast<int>(ratios.size());
  report.median = stats::quantile(ratios, 0.5);
  report.ratios = ratios;
  const auto interval = stats::median_interval(ratios, confidence);
  report.low = interval.low;
  report.high = interval.high;
  report.confidence = interval.confidence;
  report.threshold = threshold;
  report.verdict = report.low >= threshold   ? SpeedupVerdict::pass
                   : report.high < threshold ? SpeedupVerdict::fail
                                             : SpeedupVerdict::inconclusive;
  return report;
}

std::string aim_status(SpeedupVerdict v) {
  switch (v) {
    case SpeedupVerdict::pass:
      return "reached";
    case SpeedupVerdict::fail:
      return "not reached";
    case SpeedupVerdict::inconclusive:
      return "not decided";
  }
  return "?";
}

std::string to_string(SpeedupVerdict v) {
  switch (v) {
    case SpeedupVerdict::pass:
      return "PASS";
    case SpeedupVerdict::fail:
      return "FAIL";
    case SpeedupVerdict::inconclusive:
      return "INCONCLUSIVE";
  }
  return "?";
}

}  // namespace perfgate
