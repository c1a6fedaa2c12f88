#include "gates/check_gate.h"

#include "base/atomic_write.h"
#include "base/error.h"
#include "base/exit_codes.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "base/time_units.h"
#include "base/utc_time.h"
#include "formats/results_input.h"
#include "history/history_store.h"
#include "model/baseline.h"
#include "model/fix_command.h"
#include "model/results.h"
#include "render/table.h"
#include "run/git.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace perfgate {
namespace {

bool tree_is_dirty_at(const std::string& baseline) {
  try {
    // A first baseline's folder is often still to be made: its nearest existing ancestor is asked.
    const auto state = repository_state(nearest_existing_folder(baseline));
    return !state.uncommitted.empty();
  } catch (const std::exception&) {
    return false;  // only shapes the printed advice; a git that cannot answer here is update's to report
  }
}

// The timings' thresholds from the store's last runs of the results' machine on the branch, as load_check applies them.
Thresholds history_thresholds(const HistoryThresholds& h) {
  if (h.store.empty()) return {};
  return [h](Baseline& baseline, const Results& results) -> std::vector<std::string> {
    // A baseline without a timing (a cost gate's counts) has nothing for the history to judge.
    if (std::none_of(baseline.entries.begin(), baseline.entries.end(),
                     [](const Entry& e) { return is_time_unit(e.unit); }))
      return {};
    const HistoryStore store(h.store, HistoryStore::Access::read_only);
    const auto machine = recorded_machine(results.context);
    if (machine.empty())
      throw InputError(results.source + " names no machine (context machine or cpu_model), so its history is unknown");
    int considered = 0;
    const int judged = judge_by_history(
        baseline,
        [&](const Entry& e) {
          ++considered;
          // Only runs recorded after the baseline: re-recording it (accepting a change) starts the history anew.
          std::vector<double> values;
          for (const auto& p : store.series(h.branch, e.benchmark, e.field, h.rule.runs, machine)) {
            if (!is_time_unit(p.unit)) return std::vector<double>{};  // recorded as something else than a time
            if (utc_instant_text(p.recorded_at) > utc_instant_text(baseline.provenance.date))
              values.push_back(convert_time(p.value, p.unit, e.unit));
          }
          return values;
        },
        h.rule, h.branch + " in " + store.name());
    std::vector<std::string> notes;
    notes.push_back(std::to_string(judged) + " of " + std::to_string(considered) + " timings judged against the last " +
                    std::to_string(h.rule.runs) + " runs of " + h.branch + " on machine " + machine + " in " +
                    store.name() + " recorded after the baseline (" + baseline.provenance.date +
                    "; a band from their noise, at least " + format_number(100.0 * h.rule.noise.floor) + " %)" +
                    (judged < considered ? "; the others, with fewer than " + std::to_string(h.rule.minimum_runs) +
                                               " such runs, against the baseline"
                                         : ""));
    return notes;
  };
}

}  // namespace

void require_no_timing(const std::string& baseline, const std::string& gate) {
  std::error_code ignored;
  if (!std::filesystem::exists(std::filesystem::symlink_status(baseline, ignored))) return;
  for (const auto& e : read_baseline(baseline).entries) {
    if (!is_time_unit(e.unit) && !e.advisory) continue;
    throw InputError("gate " + gate + " shares the machine (shares_machine) but its baseline " + baseline + " judges " +
                     e.benchmark + " " + e.field +
                     (is_time_unit(e.unit) ? " (" + e.unit + "), a timing, which tests running beside it would change"
                                           : " (advisory), a figure of the machine it runs on") +
                     ": drop shares_machine or that entry");
  }
}

CheckOutcome judge_check(const CheckRequest& request) {
  FixContext fix{own_path(), request.results, request.baseline, request.command, false, request.shares_machine};
  std::error_code ignored;
  if (!std::filesystem::exists(std::filesystem::symlink_status(request.baseline, ignored))) {
    const auto results = read_results(request.results);
    fix.tree_dirty = tree_is_dirty_at(request.baseline);
    const auto create = first_baseline_fix(results, fix);
    if (create.command.empty()) throw InputError("no baseline '" + request.baseline + "' yet; " + create.note);
    throw InputErrorWithFix("no baseline '" + request.baseline + "' yet (" + create.note + "); create it with: ",
                            create.command);
  }
  CheckOutcome out{load_check(request.results, request.baseline, history_thresholds(request.history)),
                   code_of(Exit::pass)};
  const auto& rows = out.section.rows;
  for (const auto& note : out.section.notes) std::cout << "note: " << one_line(note) << "\n";
  print_table(std::cout, rows);
  out.code = exit_code_of(rows);
  if (out.code != 0) fix.tree_dirty = tree_is_dirty_at(request.baseline);
  print_failures(std::cout, rows, out.code != 0 ? fix_text(accept_fix(rows, fix)) : std::string());
  for (const auto& b : out.section.functions.benchmarks) {
    std::cout << "functions that moved " << one_line(b.benchmark) << "'s instructions (baseline -> results):\n"
              << profile_changes_text(b.changes, "  ");
  }
  for (const auto& note : out.section.functions.notes)
    std::cout << "note: " << one_line(note.benchmark) << ": " << one_line(note.text) << "\n";
  if (out.code == 0 && request.warning_exit_code != 0) {
    for (const auto& r : rows) {
      if (r.verdict == Verdict::slower) out.code = request.warning_exit_code;
    }
  }
  return out;
}

}  // namespace perfgate
