#pragma once
// Results against baselines: one row per baselined metric, plus rows for benchmarks nobody baselined. Pure.
#include "baseline.h"
#include "results.h"

#include <string>
#include <vector>

namespace perfgate {

/// `slower` and `other_machine` belong to advisory entries and never fail: `slower` is an advisory figure beyond
/// its tolerance on the machine it was recorded on; `other_machine` is one not compared because the results come
/// from a machine with another fingerprint.
enum class Verdict { pass, fail, missing, unbaselined, slower, other_machine };

struct Row {
  std::string benchmark, field, unit;
  Verdict verdict = Verdict::pass;
  double value = 0.0;      ///< median over the result's repetitions
  int samples = 0;         ///< repetitions found
  double baseline = 0.0;
  double threshold = 0.0;  ///< worst acceptable value under the tolerance
  std::string tolerance;   ///< human-readable tolerance (and limit)
  std::string reason;      ///< why it failed, empty when it passed
};

/// Compares every baseline entry with the median of its measurements. A baselined metric absent from the
/// results is `missing` (a failure); a benchmark in the results with no baseline entry at all is reported as
/// `unbaselined` (not a failure: adding a baseline is a reviewed change). Advisory entries are judged only when
/// the results' machine_fingerprint context equals the baseline's; their failures become `slower`.
std::vector<Row> compare(const Results& results, const Baseline& baseline);

double median(std::vector<double> values);
std::string to_string(Verdict v);

/// 0 when every row passed, is unbaselined or advisory, 1 when any failed or is missing.
int exit_code_of(const std::vector<Row>& rows);

}  // namespace perfgate
