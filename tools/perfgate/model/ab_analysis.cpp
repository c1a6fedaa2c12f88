#include "model/ab_analysis.h"

#include "base/error.h"
#include "model/compare.h"
#include "model/stats.h"

#include <algorithm>
#include <cmath>

namespace perfgate {

int rounds_needed(double confidence) {
  int n = 1;
  while (2.0 * std::pow(0.5, n) > 1.0 - confidence) ++n;
  return n;
}

std::vector<AbComparison> compare_revisions(const AbMeasurements& m, double max_slowdown, double family_confidence) {
  std::vector<AbComparison> out;
  if (m.rounds.empty() || m.revisions.size() < 2) return out;
  std::vector<std::string> benchmarks;
  for (const auto& [name, values] : m.rounds.front()) {
    bool everywhere = values.size() == m.revisions.size();
    for (const auto& round : m.rounds)
      everywhere = everywhere && round.count(name) != 0 && round.at(name).size() == m.revisions.size();
    if (everywhere) benchmarks.push_back(name);
  }
  const double comparisons = static_cast<double>(benchmarks.size() * (m.revisions.size() - 1));
  const double confidence = 1.0 - (1.0 - family_confidence) / std::max(comparisons, 1.0);
  for (const auto& name : benchmarks) {
    for (size_t head = 1; head < m.revisions.size(); ++head) {
      AbComparison c;
      c.benchmark = name;
      c.base = m.revisions[0];
      c.head = m.revisions[head];
      c.unit = m.unit;
      std::vector<double> base_times, head_times;
      for (const auto& round : m.rounds) {
        const auto& v = round.at(name);
        base_times.push_back(v[0]);
        head_times.push_back(v[head]);
        c.ratios.push_back(v[head] / v[0]);
      }
      c.base_median = median(base_times);
      c.head_median = median(head_times);
      c.median = median(c.ratios);
      c.confidence = confidence;
      if (static_cast<int>(c.ratios.size()) >= rounds_needed(confidence)) {
        const auto interval = stats::median_interval(c.ratios, confidence);
        c.low = interval.low;
        c.high = interval.high;
        c.confidence = interval.confidence;
        const double limit = 1.0 + max_slowdown;
        c.verdict = c.high <= limit ? SpeedupVerdict::pass
                    : c.low > limit ? SpeedupVerdict::fail
                                    : SpeedupVerdict::inconclusive;
      } else {
        c.low = *std::min_element(c.ratios.begin(), c.ratios.end());
        c.high = *std::max_element(c.ratios.begin(), c.ratios.end());
      }
      out.push_back(c);
    }
  }
  return out;
}

std::vector<CostChange> compare_costs(const std::map<std::string, double>& base,
                                      const std::map<std::string, double>& head, double max_increase) {
  std::vector<CostChange> out;
  for (const auto& [name, base_count] : base) {
    const auto found = head.find(name);
    if (found == head.end()) continue;
    for (const double count : {base_count, found->second}) {
      if (!std::isfinite(count) || count <= 0.0) {
        throw InputError(name + ": an instruction count that is not a positive number");
      }
    }
    const double change = found->second / base_count - 1.0;
    out.push_back({name, base_count, found->second, change, change > max_increase, std::nullopt, std::nullopt});
  }
  return out;
}

std::string verdict_text(const AbComparison& c) {
  return c.verdict == SpeedupVerdict::fail && c.acceptance && c.acceptance->within ? "ACCEPTED" : to_string(c.verdict);
}

std::string verdict_text(const CostChange& c) {
  if (!c.fail) return "PASS";
  return c.acceptance && c.acceptance->within ? "ACCEPTED" : "FAIL";
}

void apply_acceptance(std::vector<AbComparison>& timings, const std::vector<AcceptRule>& rules) {
  for (auto& c : timings) {
    if (c.verdict == SpeedupVerdict::fail) c.acceptance = acceptance_of(rules, c.benchmark, "real_time", c.high - 1.0);
  }
}

void apply_acceptance(std::vector<CostChange>& costs, const std::vector<AcceptRule>& rules) {
  for (auto& c : costs) {
    if (c.fail) c.acceptance = acceptance_of(rules, c.benchmark, "instructions", c.change);
  }
}

bool fails(const AbComparison& c) {
  return c.verdict == SpeedupVerdict::fail && !(c.acceptance && c.acceptance->within);
}
bool fails(const CostChange& c) { return c.fail && !(c.acceptance && c.acceptance->within); }

}  // namespace perfgate
