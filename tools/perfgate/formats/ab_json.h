#pragma once
// The outcome of `perfgate ab` as data: what it writes with --json and what `perfgate comment` and `report --ab`
// read back. Reading treats the file as untrusted input (every field checked, InputError on anything else).
#include "model/ab_analysis.h"

#include <string>
#include <vector>

namespace perfgate {

struct AbRevision {
  std::string label, commit;
};

struct AbTiming {
  std::string suite, filter, base_commit, head_commit;
  int rounds = 0;
  AbComparison comparison;
};

struct AbRecord {
  std::vector<AbRevision> revisions;
  double max_slowdown = 0.0, max_instruction_increase = 0.0;
  std::vector<AbTiming> timings;
  bool has_costs = false;
  std::vector<CostChange> costs;
};

/// 1 when any comparison fails (a FAIL not accepted), else 3 when any timing is INCONCLUSIVE, else 0.
int exit_status_of(const AbRecord& record);
/// "PASS", "FAIL" or "INCONCLUSIVE", as exit_status_of decides.
std::string overall_text(const AbRecord& record);

/// The JSON document (format "perfgate-ab", version 1).
std::string ab_json_text(const AbRecord& record);
/// Reads what ab_json_text wrote; throws InputError naming `source` on anything else.
AbRecord parse_ab_json(const std::string& text, const std::string& source);

}  // namespace perfgate
