#include "run/ab_rounds.h"

#include "base/error.h"
#include "base/time_units.h"
#include "model/compare.h"
#include "run/benchmark_runner.h"
#include "run/progress.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace perfgate {
namespace {

// Each revision's time of each benchmark in one process run (median over repetitions when there are several).
std::map<std::string, double> times_of(const Results& r, std::string& unit) {
  std::map<std::string, std::vector<double>> all;
  for (const auto& m : r.measurements) {
    if (m.field != "real_time") continue;
    if (unit.empty()) unit = m.unit;  // every revision's times in the first unit seen, whatever each run wrote
    all[m.benchmark].push_back(convert_time(m.value, m.unit, unit));
  }
  std::map<std::string, double> out;
  for (const auto& [name, values] : all) out[name] = median(values);
  return out;
}

}  // namespace

std::vector<AbComparison> run_interleaved(const InterleavedRun& run, const Gate& gate, const GateManifest& manifest,
                                          AbMeasurements* measured) {
  AbMeasurements m;
  m.revisions = run.labels;
  std::filesystem::create_directories(run.results_dir);
  const size_t n = run.builds.size();
  const int needed = rounds_needed(1.0 - 0.05 / static_cast<double>(n - 1));
  int rounds = std::max(run.rounds, needed);
  const int max_rounds = std::max(run.max_rounds, rounds);
  std::vector<AbComparison> verdicts;
  Progress progress;
  for (int round = 0;; ++round) {
    if (round == rounds) {
      verdicts = compare_revisions(m, run.max_slowdown);
      const bool undecided = std::any_of(verdicts.begin(), verdicts.end(), [](const AbComparison& c) {
        return c.verdict == SpeedupVerdict::inconclusive;
      });
      if (!undecided || rounds >= max_rounds) break;
      rounds = std::min(max_rounds, rounds + 2);  // inconclusive: more rounds, within the budget
    }
    std::map<std::string, std::vector<double>> sum_logs;
    std::map<std::string, std::vector<int>> runs;  // how many of the round's two runs of each build reported it
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t k = 0; k < n; ++k) {
        const size_t i = pass == 0 ? k : n - 1 - k;
        progress.update(run.progress_name + ": round " + std::to_string(round + 1) + " of " + std::to_string(rounds) +
                        ", " + run.labels[i]);
        auto argv = resolve_command(gate, run.builds[i].build_dir);
        argv.insert(argv.end(), run.arguments.begin(), run.arguments.end());
        const auto out =
            (std::filesystem::path(run.results_dir) / (gate.name + "-" + run.builds[i].commit.substr(0, 12) + "-r" +
                                                       std::to_string(round) + "-p" + std::to_string(pass) + ".json"))
                .string();
        for (const auto& [name, t] :
             times_of(run_benchmark(argv, out, manifest.environment, gate.timeout_seconds, run.builds[i].build_dir),
                      m.unit)) {
          auto& slot = sum_logs[name];
          slot.resize(n, 0.0);
          slot[i] += std::log(t) / 2.0;  // geometric mean of the two runs
          auto& count = runs[name];
          count.resize(n, 0);
          ++count[i];
        }
      }
    }
    std::map<std::string, std::vector<double>> round_values;
    for (const auto& [name, s] : sum_logs) {
      // A benchmark some build did not report in both runs is left out of the round (and so of the comparison, which
      // takes only benchmarks of every round): a missing time is no time, never a made-up one.
      const auto& count = runs.at(name);
      if (std::any_of(count.begin(), count.end(), [](int c) { return c != 2; })) continue;
      std::vector<double> v;
      for (const double x : s) v.push_back(std::exp(x));
      round_values[name] = v;
    }
    m.rounds.push_back(round_values);
  }
  if (measured) *measured = m;
  return verdicts;
}

}  // namespace perfgate
