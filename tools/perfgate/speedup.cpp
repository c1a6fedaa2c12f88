#include "speedup.h"

#include "error.h"
#include "stats.h"

#include <map>

namespace perfgate {

SpeedupReport judge_speedup(const Results& results, const std::string& reference, const std::string& candidate,
                            double threshold, double confidence) {
  SpeedupReport report;
  std::map<int, double> ref, cand;
  for (const auto& m : results.measurements) {
    if (m.field != "real_time") continue;
    if (m.benchmark == reference) {
      ref[m.repetition] = m.value;
      report.unit = m.unit;
    }
    if (m.benchmark == candidate) cand[m.repetition] = m.value;
  }
  std::vector<double> ratios;
  for (const auto& [rep, r] : ref) {
    const auto c = cand.find(rep);
    if (c == cand.end() || c->second <= 0.0) continue;
    ratios.push_back(r / c->second);
    report.reference_times.push_back(r);
    report.candidate_times.push_back(c->second);
  }
  if (ratios.size() < 6) {
    throw InputError("speedup: " + std::to_string(ratios.size()) + " paired repetitions of '" + reference + "' and '" + candidate +
                     "' in " + results.source + "; at least 6 are needed (run with --benchmark_repetitions)");
  }
  report.pairs = static_cast<int>(ratios.size());
  report.median = stats::quantile(ratios, 0.5);
  report.ratios = ratios;
  const auto interval = stats::median_interval(ratios, confidence);
  report.low = interval.low;
  report.high = interval.high;
  report.confidence = interval.confidence;
  report.threshold = threshold;
  report.verdict = report.low >= threshold ? SpeedupVerdict::pass
                   : report.high < threshold ? SpeedupVerdict::fail
                                             : SpeedupVerdict::inconclusive;
  return report;
}

std::string aim_status(SpeedupVerdict v) {
  switch (v) {
    case SpeedupVerdict::pass: return "reached";
    case SpeedupVerdict::fail: return "not reached";
    case SpeedupVerdict::inconclusive: return "not decided";
  }
  return "?";
}

std::string to_string(SpeedupVerdict v) {
  switch (v) {
    case SpeedupVerdict::pass: return "PASS";
    case SpeedupVerdict::fail: return "FAIL";
    case SpeedupVerdict::inconclusive: return "INCONCLUSIVE";
  }
  return "?";
}

}  // namespace perfgate
