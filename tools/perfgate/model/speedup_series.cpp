#include "model/speedup_series.h"

#include "base/error.h"
#include "base/json_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace perfgate {

std::string speedup_series_name(const std::string& reference, const std::string& candidate) {
  return "speedup:" + candidate + "/" + reference;
}

std::string speedup_results_text(const SpeedupReport& report, const Results& measured, const std::string& reference,
                                 const std::string& candidate) {
  nlohmann::json context = nlohmann::json::object();
  for (const auto& [key, value] : measured.context) context[key] = value;
  context["speedup_source"] = measured.source;
  context["speedup_confidence"] = std::to_string(report.confidence);
  const auto name = speedup_series_name(reference, candidate);
  const nlohmann::json run = {{"name", name},
                              {"run_name", name},
                              {"run_type", "iteration"},
                              {"repetitions", 1},
                              {"repetition_index", 0},
                              {"iterations", 1},
                              {"speedup", report.median},
                              {"speedup_low", report.low},
                              {"speedup_high", report.high},
                              {"pairs", report.pairs}};
  return json_output_text({{"context", context}, {"benchmarks", nlohmann::json::array({run})}});
}

SeriesVerdict judge_against_baseline(const SpeedupReport& report, const Baseline& baseline,
                                     const std::string& series_name) {
  for (const auto& e : baseline.entries) {
    if (e.benchmark != series_name || e.field != "speedup") continue;
    if (e.direction != Direction::higher)
      throw InputError("the baselined speedup of " + series_name + " must be higher-is-better");
    if (!e.unit.empty() && e.unit != "x")
      throw InputError("the baselined speedup of " + series_name + " has unit '" + e.unit + "'; a ratio's is x");
    SeriesVerdict v;
    v.baseline = e.value;
    v.limit = e.limit ? std::max(acceptable_band(e).low, *e.limit) : acceptable_band(e).low;
    v.tolerance = e.tolerance;
    v.hard_limit = e.limit;
    v.below = report.high < v.limit;
    v.advisory = e.advisory;
    v.verdict = v.below && !e.advisory ? SpeedupVerdict::fail : SpeedupVerdict::pass;
    return v;
  }
  throw InputError("the baseline holds no entry '" + series_name +
                   "' / speedup (create it with perfgate update --track "
                   "speedup:higher:rel=X from the results of speedup --out)");
}

}  // namespace perfgate
