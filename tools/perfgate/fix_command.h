#pragma once
// The perfgate commands that compare prints as the next step: the update that accepts an intended change, and the
// one that creates a missing baseline. Each is printed so that it runs as printed (shell-quoted, perfgate by the path
// it was started from); where no such command exists, the text says what is missing instead of printing one that
// would be refused.
#include "baseline.h"
#include "compare.h"
#include "results.h"

#include <string>
#include <vector>

namespace perfgate {

struct FixContext {
  std::string perfgate;                     ///< how to start perfgate (the path this one was started from)
  std::string results, baseline;            ///< as given to compare
  std::vector<std::string> suite_command;   ///< the suite's command that wrote the results; empty when not given
  bool tree_dirty = false;                  ///< the baseline's working tree has uncommitted changes
};

/// What to print after the failures: "If the change is intended, accept it with:\n  <command>\n" — dropping the
/// missing metrics, with --allow-dirty on a dirty tree, and rerunning the suite when the baseline holds timings
/// (which need two captures) and the suite's command is known; otherwise an explanation of the second capture.
std::string accept_fix(const std::vector<Row>& rows, const Baseline& baseline, const FixContext& context);

/// The command that creates the first baseline from these results: every field that all benchmarks report as whole
/// numbers tracked exactly, and real_time gated at 50 % on the machine that records it (a starting point, said so).
std::string first_baseline_fix(const Results& results, const FixContext& context);

/// The path of the running perfgate, for printed commands; "perfgate" when it cannot be read.
std::string own_path();

}  // namespace perfgate
