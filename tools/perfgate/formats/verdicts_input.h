#pragma once
// Reads a verdicts.json that `perfgate report` wrote, as untrusted input: a pull request's comment is rendered from
// it by a job that must not trust what the pull request's code produced. Every field used is checked.
#include "model/function_changes.h"

#include <optional>
#include <string>
#include <vector>

namespace perfgate {

struct VerdictRow {
  std::string suite, benchmark, field, verdict, reason, change_text;
  std::string value, baseline;  ///< as printed: whole numbers in all their digits, "" when absent
  bool advisory = false;
  std::optional<ProfileChanges> functions;  ///< an instructions row's differential profile, when verdicts.json has one
  std::string unit;              ///< the value's and the baseline's unit ("" for a count, or a file that has none)
  std::string tolerance;         ///< the tolerance as the report words it ("5% rel", "exact"; "" when none)
  std::string worst_acceptable;  ///< the worst value the tolerance accepts, as printed ("" when none)
};

struct SpeedupVerdictRow {
  std::string reference, candidate, verdict, target_verdict;
  double median = 0.0, low = 0.0, high = 0.0, confidence = 0.0, threshold = 0.0;
  std::optional<double> target;
  int pairs = 0;
};

/// The update that accepts a failing results file's change, as the report printed it.
struct VerdictFix {
  std::string suite, command;
};

struct VerdictsDocument {
  std::string overall, git_sha, machine, date;
  std::vector<VerdictRow> rows;
  std::vector<VerdictFix> fixes;            ///< "fixes", when the file has them
  std::vector<SpeedupVerdictRow> speedups;  ///< "speedups" when the file has it, else its one "speedup"
};

/// Throws InputError naming `source` when the text is not a verdicts.json of this shape, or when its "overall" is
/// more favourable than its own rows judge (a failed or missing check, a failed or inconclusive speedup): a summary is
/// never believed over its rows. A worse overall stands (it may count an A/B comparison the file does not hold).
VerdictsDocument parse_verdicts_json(const std::string& text, const std::string& source);

}  // namespace perfgate
