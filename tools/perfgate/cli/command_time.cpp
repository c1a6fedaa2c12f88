// perfgate time: whole commands timed again and again, interleaved, as perfgate results JSON; a suite for projects
// with no benchmark library (gates/harness_results.h).
#include "cli/cli_help.h"
#include "cli/commands.h"

namespace perfgate {

Command add_time_command(CLI::App& app, TimeArgs& a) {
  Command cmd(app, "time", "time whole commands, interleaved, into perfgate results JSON (a suite of any program)");
  cmd.footer(command_footer(
      "perfgate time --runs 10 --out times.json -- 'small=./tool fixtures/small.csv' 'large=./tool "
      "fixtures/large.csv'",
      {Exit::pass},
      "each NAME=COMMAND runs through /bin/sh -c; round r runs the commands in order when r is even, reversed when "
      "odd, and is repetition r of each; real_time and cpu_time in seconds; Google Benchmark's "
      "--benchmark_out, _context, _filter and _repetitions flags are taken as a suite's (perfgate gate, update and "
      "calibrate pass them); bad input includes a command that fails"));
  cmd.option("--runs", a.plan.runs, "recorded runs of each command (its repetitions)")
      .in_range(1, 1000000)
      .show_default();
  cmd.option("--warmup", a.plan.warmup, "runs of each command first, not recorded").in_range(0, 1000).show_default();
  cmd.option("--timeout", a.plan.timeout_seconds, "each run's time limit in seconds (0: none)").in_range(0, 86400);
  cmd.flag("--hyperfine", a.plan.hyperfine,
           "time each run with hyperfine (--runs 1 --shell=none: the command split into words, quotes respected, no "
           "pipes or redirections), perfgate interleaving the runs");
  cmd.option("--out", a.out, "perfgate results JSON to write (or --benchmark_out=FILE after --)");
  cmd.option("command", a.words, "after --: NAME=COMMAND, one per command to time").required();
  return cmd;
}

int run_time(const TimeArgs& a) {
  time_commands_into(a);
  return code_of(Exit::pass);
}

}  // namespace perfgate
