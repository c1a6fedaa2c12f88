#pragma once
// One recorded run as every history store keeps it: who (commit, branch, machine), when, and the median of each
// (benchmark, field) over the run's results files. The stores only append and read these; the queries
// (history_store.h) and change points work on them alike, whatever the store. Every text is valid UTF-8 without NUL,
// and each (benchmark, field) appears once per run: what every store can keep.
#include "model/results.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace perfgate {

struct RunInfo {
  std::string commit, branch, recorded_at, machine;
};

struct HistoryMetric {
  std::string suite;  ///< the results file's name without .json ("" when recorded before suites were kept)
  std::string benchmark, field, unit;
  double value = 0.0;   ///< median over the run's repetitions
  int64_t samples = 0;  ///< repetitions behind the median
};

struct HistoryRun {
  RunInfo info;
  std::vector<HistoryMetric> metrics;  ///< sorted by (benchmark, field), one each
};

/// The machine a run is recorded under, from its results' context: `machine` (which perfgate derives from Google
/// Benchmark's own context when the suite names none), else `cpu_model`, else "". Thresholds from history compare
/// runs of one machine by it.
std::string recorded_machine(const std::map<std::string, std::string>& context);

/// Throws InputError when `results` hold a value a store cannot keep exactly (a count beyond 2^53: stores keep
/// doubles): callers check before they open (and so create) a store.
void check_recordable(const std::vector<Results>& results);

/// The run: medians per (benchmark, field) over all `results`, times in the unit of their first occurrence (a time and
/// a non-time of one metric refused), the suite of the file it first appeared in.
HistoryRun history_run_of(const RunInfo& info, const std::vector<Results>& results);

/// One run as JSON (format "perfgate-history-run", version 1): the data branch's files and `history export`.
nlohmann::json history_run_json(const HistoryRun& run);
/// A run's identity: its content as canonical JSON text (metrics sorted by suite, benchmark and field), never the
/// second it was recorded. Two suites recorded in one second are two runs; the same run imported twice is one. A data
/// branch stores exactly this text, so that equal runs are one git object.
std::string run_identity(const HistoryRun& run);
/// Reads it back; throws InputError naming `source` on anything else (a text that is not UTF-8, a metric twice).
HistoryRun parse_history_run(const nlohmann::json& doc, const std::string& source);

}  // namespace perfgate
