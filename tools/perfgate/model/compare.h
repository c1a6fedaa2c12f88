#pragma once
// Results against baselines: one row per baselined metric, plus rows for benchmarks nobody baselined. Pure.
#include "model/baseline.h"
#include "model/results.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// `slower` and `other_machine` belong to advisory entries and never fail: `slower` is an advisory figure beyond
/// its tolerance on the machine it was recorded on; `other_machine` is one not compared because the results come
/// from a machine with another fingerprint.
enum class Verdict { pass, fail, missing, unbaselined, slower, other_machine };

/// Why a row did not pass, as data; row_text.h words it for the renderers.
enum class Finding {
  beyond_tolerance,  ///< outside the entry's acceptable_band (exact: differs; either: moved; else: worse)
  beyond_limit,      ///< past the entry's hard limit
  not_measured,      ///< the results hold no measurement of the metric
  other_machine,     ///< an advisory entry, and the results come from another machine than the baseline's
  not_baselined,     ///< a benchmark in the results with no baseline entry
};

struct Row {
  std::string benchmark, field, unit;
  Verdict verdict = Verdict::pass;
  double value = 0.0;                    ///< median over the result's repetitions
  int samples = 0;                       ///< repetitions found
  std::optional<int64_t> value_integer;  ///< the median exactly, when every repetition wrote the same whole number kind
  // The baseline entry judged (defaults for an unbaselined row).
  double baseline = 0.0;
  std::optional<int64_t> baseline_integer;  ///< the entry's value exactly, when the baseline wrote a whole number
  Direction direction = Direction::higher;
  Tolerance tolerance;
  std::optional<double> limit;
  bool advisory = false;
  bool timing = false;  ///< the entry is in a time unit: judged only against results from the machine that recorded it
  Band band;            ///< acceptable_band of the entry: the one meaning of its tolerance
  double threshold = 0.0;                         ///< worst acceptable value under the tolerance (threshold_of)
  std::vector<Finding> findings;                  ///< empty when it passed
  std::string results_source;                     ///< where the results came from (for not_measured)
  std::string results_machine, baseline_machine;  ///< machine fingerprints, "" when unknown (for other_machine)
};

/// Compares every baseline entry with the median of its measurements. A baselined metric absent from the
/// results is `missing` (a failure); a benchmark in the results with no baseline entry at all is reported as
/// `unbaselined` (not a failure: adding a baseline is a reviewed change). Presence is checked first, for every entry:
/// an advisory entry not measured is `missing` too. Timings (entries in a time unit) and advisory values are judged
/// only when the results' machine_fingerprint context equals the baseline's (`other_machine` otherwise: a wall time
/// from another machine says nothing about the code); an advisory entry's failures become `slower`.
/// Rows come failures first, then MISSING, then WARNING (`slower`), the rest in the baseline's order, unbaselined last.
std::vector<Row> compare(const Results& results, const Baseline& baseline);

double median(std::vector<double> values);
/// The median of whole numbers as a whole number: the middle one, or the two middle ones when they are equal; nullopt
/// when they differ (the median is then not a whole number) or there are none.
std::optional<int64_t> integer_median(std::vector<int64_t> values);
std::string to_string(Verdict v);

/// 0 when every row passed, is unbaselined or advisory, 1 when any failed or is missing.
int exit_code_of(const std::vector<Row>& rows);

}  // namespace perfgate
