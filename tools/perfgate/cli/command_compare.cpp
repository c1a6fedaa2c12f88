// perfgate compare: results against a baseline, one row per metric; the failing ones with the command that would
// accept them, advisory figures beyond their tolerance as WARNING lines. Exit 0 pass, 1 regression (or a baselined
// metric that vanished), 2 bad input (a missing baseline: with the command that creates it).
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "gates/check_gate.h"

namespace perfgate {

Command add_compare_command(CLI::App& app, CompareArgs& a) {
  Command cmd(app, "compare", "judge results against a baseline; exit 0 pass, 1 regression, 2 bad input");
  cmd.footer(command_footer(
      "perfgate compare --results build/results/sorting.json --baseline baselines/sorting.json -- "
      "build/sort_benchmarks --benchmark_repetitions=3",
      {Exit::pass, Exit::fail},
      "pass includes WARNING lines; bad input includes a missing baseline, with the command that creates it"));
  cmd.option("--results", a.results, "results: Google Benchmark, perfgate or hyperfine JSON, or a Catch2 XML report")
      .required();
  cmd.option("--baseline", a.baseline, "baseline JSON").required();
  cmd.option("--warning-exit-code", a.warning_exit_code,
             "exit with this code (0, or 7 to 255: the others have their meanings) when nothing failed but an "
             "advisory figure is beyond its tolerance (ctest's SKIP_RETURN_CODE shows it)")
      .zero_or_in(7, 255);
  add_history_threshold_options(cmd, a.history);
  cmd.option("command", a.command,
             "after --: the suite's command that wrote the results; the printed fix then runs it");
  return cmd;
}

void add_history_threshold_options(Command& cmd, HistoryThresholds& h) {
  auto store = cmd.option("--history-thresholds", h.store,
                          "judge each timing against its last runs on this machine in this history store (SQLite file, "
                          "git:REMOTE#BRANCH or postgresql://...), recorded after the baseline, instead of the "
                          "baseline's value and tolerance, where the store holds at least 5 of them");
  cmd.option("--history-branch", h.branch, "with --history-thresholds: the branch whose runs judge")
      .show_default()
      .needs(store);
  cmd.option("--history-runs", h.rule.runs, "with --history-thresholds: how many of the last runs judge")
      .show_default()
      .in_range(5, 1000)
      .needs(store);
  cmd.option("--history-min-shift", h.rule.noise.floor,
             "with --history-thresholds: the smallest relative move that can fail, however quiet the runs")
      .show_default()
      .in_range(0.0, 0.99)
      .needs(store);
}

int run_compare(const CompareArgs& a) { return judge_check(a).code; }

}  // namespace perfgate
