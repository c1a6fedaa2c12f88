#pragma once
// A results file judged against its baseline, once: the rows as the report shows them, the table and the fixes
// printed from those rows, and the exit code from them. `perfgate compare` and every baseline, cost and speedup gate
// of `perfgate gate` judge through it, and gate's verdicts.json holds the very section it returns.
#include "formats/report_data.h"
#include "model/noise_band.h"

#include <string>
#include <vector>

namespace perfgate {

/// Timings judged against a history store's last runs of this machine instead of the baseline's value and tolerance
/// (judge_by_history); `store` empty: off.
struct HistoryThresholds {
  std::string store, branch = "main";
  HistoryRule rule;
};

struct CheckRequest {
  std::string results, baseline;
  std::vector<std::string> command;  ///< the suite's command that wrote the results: printed fixes run it themselves
  int warning_exit_code = 0;         ///< exit code when nothing failed but an advisory figure is beyond its tolerance
  bool shares_machine = false;       ///< the gate shares the machine: the first baseline it proposes holds no timing
  HistoryThresholds history;
};

struct CheckOutcome {
  CheckSection section;
  int code = 0;  ///< 0 pass, 1 a failure, or the warning exit code
};

/// A gate that shares the machine with other tests (Gate::shares_machine) judges no timing: throws InputError naming
/// `gate` and the first entry of `baseline` in a time unit (which a test running beside it would change) or advisory
/// (a figure of the machine it runs on). A baseline not made yet holds none. A rate counter (items_per_second) has no
/// unit perfgate could tell from a count's: the manifest's author keeps such a gate serial.
void require_no_timing(const std::string& baseline, const std::string& gate);

/// Judges, prints the table (and the failures with the command that accepts them, and the functions that moved an
/// instruction count), and returns what was judged. Throws InputError for unreadable input, and InputErrorWithFix for a
/// baseline that does not exist yet (with the command that creates it).
CheckOutcome judge_check(const CheckRequest& request);

}  // namespace perfgate
