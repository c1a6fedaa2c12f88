#pragma once
// The perfgate commands that compare prints as the next step: the update that accepts an intended change, and the
// one that creates a missing baseline. Each is printed so that it runs as printed (shell-quoted, perfgate by the path
// it was started from); where no such command exists, the text says what is missing instead of printing one that
// would be refused.
#include "model/compare.h"
#include "model/results.h"

#include <string>
#include <vector>

namespace perfgate {

struct FixContext {
  std::string perfgate;                    ///< how to start perfgate (the path this one was started from)
  std::string results, baseline;           ///< as given to compare
  std::vector<std::string> suite_command;  ///< the suite's command that wrote the results; empty when not given
  bool tree_dirty = false;                 ///< the baseline's working tree has uncommitted changes
  bool no_timings = false;  ///< the gate shares the machine (Gate::shares_machine): a first baseline tracks no timing
};

/// The update that accepts the rows' new values: dropping the missing metrics, with --allow-dirty on a dirty tree,
/// and rerunning the suite when its command is known. `command` is empty when no command can run as printed (the
/// baseline holds timings, which need several captures, and the suite's command is unknown): `notes` then say what to
/// do.
struct AcceptFix {
  std::string command;
  std::vector<std::string> notes;
};
AcceptFix accept_fix(const std::vector<Row>& rows, const FixContext& context);

/// The fix as the terminal shows it: "If the change is intended, accept it with:\n  <command>\n" and its notes.
std::string fix_text(const AcceptFix& fix);

/// The command that creates the first baseline from these results: every field that all benchmarks report as whole
/// numbers tracked exactly, and real_time gated by a band learned from its noise on the machine that records it (a
/// starting point, said so).
/// `command` is empty when none can run as printed (no field to track; timings but no suite command): `note` says why.
struct FirstBaselineFix {
  std::string command, note;
};
FirstBaselineFix first_baseline_fix(const Results& results, const FixContext& context);

/// The path of the running perfgate, for printed commands; "perfgate" when it cannot be read.
std::string own_path();

}  // namespace perfgate
