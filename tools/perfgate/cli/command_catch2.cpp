// perfgate catch2: a Catch2 test binary's benchmarks as perfgate results JSON, one repetition per run of the binary
// (gates/harness_results.h).
#include "cli/cli_help.h"
#include "cli/commands.h"

namespace perfgate {

Command add_catch2_command(CLI::App& app, Catch2Args& a) {
  Command cmd(app, "catch2", "run a Catch2 test binary's benchmarks into perfgate results JSON");
  cmd.footer(command_footer(
      "perfgate catch2 --runs 5 --out catch2.json -- build/tests \"[benchmark]\" --benchmark-samples 50", {Exit::pass},
      "each run appends -r xml -o FILE; each benchmark's mean in run r is its repetition r (real_time, ns); Catch2 2 "
      "and 3; Google Benchmark's --benchmark_out, _context, _filter and _repetitions flags are taken as a suite's "
      "(perfgate gate, update and calibrate pass them); bad input includes a failed test case or benchmark"));
  cmd.option("--runs", a.runs, "runs of the binary (each benchmark's repetitions)").in_range(1, 1000000).show_default();
  cmd.option("--timeout", a.timeout_seconds, "each run's time limit in seconds (0: none)").in_range(0, 86400);
  cmd.option("--out", a.out, "perfgate results JSON to write (or --benchmark_out=FILE after --)");
  cmd.option("command", a.words, "after --: the test binary and its own arguments (test spec, Catch2's options)")
      .required();
  return cmd;
}

int run_catch2_command(const Catch2Args& a) {
  run_catch2_into(a);
  return code_of(Exit::pass);
}

}  // namespace perfgate
