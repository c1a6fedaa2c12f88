// perfgate compare: results against a baseline, one row per metric; the failing ones with the command that would
// accept them, advisory figures beyond their tolerance as WARNING lines. Exit 0 pass, 1 regression (or a baselined
// metric that vanished), 2 bad input (a missing baseline: with the command that creates it).
#include "model/baseline.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "model/compare.h"
#include "base/atomic_write.h"
#include "base/error.h"
#include "model/fix_command.h"
#include "formats/instruction_changes.h"
#include "base/one_line.h"
#include "run/git.h"
#include "cli/numeric_options.h"
#include "model/results.h"
#include "render/table.h"

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

}  // namespace

CLI::App* add_compare_command(CLI::App& app, CompareArgs& a) {
  auto* cmd = app.add_subcommand("compare", "judge results against a baseline; exit 0 pass, 1 regression, 2 bad input");
  cmd->footer(command_footer("perfgate compare --results build/results/sorting.json --baseline baselines/sorting.json -- build/sort_benchmarks --benchmark_repetitions=3",
                              {Exit::pass, Exit::fail}, "pass includes WARNING lines; bad input includes a missing baseline, with the command that creates it"));
  cmd->add_option("--results", a.results, "Google Benchmark JSON")->required();
  cmd->add_option("--baseline", a.baseline, "baseline JSON")->required();
  cmd->add_option("--warning-exit-code", a.warning_exit_code,
                  "exit with this code (0, or 7 to 255: the others have their meanings) when nothing failed but an advisory figure is beyond its tolerance (ctest's SKIP_RETURN_CODE shows it)")
      ->check(CLI::IsMember({0}) | CLI::Range(7, 255));
  cmd->add_option("command", a.command, "after --: the suite's command that wrote the results; the printed fix then runs it");
  return cmd;
}

int run_compare(const CompareArgs& a) {
  const auto results = read_results(a.results);
  FixContext fix{own_path(), a.results, a.baseline, a.command, false};
  std::error_code ignored;
  if (!std::filesystem::exists(std::filesystem::symlink_status(a.baseline, ignored))) {
    fix.tree_dirty = tree_is_dirty_at(a.baseline);
    const auto create = first_baseline_fix(results, fix);
    if (create.command.empty()) throw InputError("no baseline '" + a.baseline + "' yet; " + create.note);
    throw InputErrorWithFix("no baseline '" + a.baseline + "' yet (" + create.note + "); create it with: ", create.command);
  }
  const auto baseline = read_baseline(a.baseline);
  const auto rows = compare(results, baseline);
  print_table(std::cout, rows);
  const int code = exit_code_of(rows);
  if (code != 0) fix.tree_dirty = tree_is_dirty_at(a.baseline);
  print_failures(std::cout, rows, code != 0 ? fix_text(accept_fix(rows, fix)) : std::string());
  const auto functions = instruction_changes(rows, a.results, a.baseline);
  for (const auto& b : functions.benchmarks) {
    std::cout << "functions that moved " << one_line(b.benchmark) << "'s instructions (baseline -> results):\n"
              << profile_changes_text(b.changes, "  ");
  }
  for (const auto& note : functions.notes) std::cout << "note: " << one_line(note.benchmark) << ": " << one_line(note.text) << "\n";
  if (code == 0 && a.warning_exit_code != 0) {
    for (const auto& r : rows) {
      if (r.verdict == Verdict::slower) return a.warning_exit_code;
    }
  }
  return code;
}

}  // namespace perfgate
