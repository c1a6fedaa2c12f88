// perfgate cost: runs a program under valgrind's callgrind and writes its per-step costs as Google Benchmark JSON;
// with --suite, an unchanged Google Benchmark suite's per-iteration costs (run/cost_runner.h).
// The program marks what it measures (an example: examples/gated-suite/cost_sorting.cpp): instrumentation off at
// start, and each measured step ends with CALLGRIND_DUMP_STATS_AT(<benchmark name>). Every such dump becomes one
// repetition of that benchmark with the counters `instructions` and `estimated_cycles`, which `perfgate compare`
// judges against a baseline like any other result. Lines "context KEY VALUE" on the program's standard output are
// recorded in the results' context.
#include "base/error.h"
#include "base/one_line.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "gates/cost_gate.h"

#include <iostream>

namespace perfgate {

Command add_cost_command(CLI::App& app, CostArgs& a) {
  Command cmd(app, "cost", "instruction counts and cycle estimates per measured step, under callgrind");
  cmd.footer(
      command_footer("perfgate cost --out cost.json -- build/cost_program\n  perfgate cost --suite --out "
                     "cost.json -- build/sort_benchmarks\n  perfgate cost --whole convert_small --out cost.json -- "
                     "build/convert fixtures/small.csv",
                     {Exit::pass, Exit::unavailable}, "bad input includes a program that fails"));
  cmd.option("--out", a.out,
             "Google Benchmark JSON to write (counters instructions, estimated_cycles); the steps' function "
             "profile goes beside "
             "it as <stem>.functions.tsv")
      .required();
  cmd.option("--context", a.context, "KEY=VALUE recorded in the results' context (repeatable)");
  cmd.option("--cache", a.cache_text,
             "LEVEL=BYTES,WAYS,LINE_BYTES: simulate this cache (LEVEL I1, D1 or LL) instead of this machine's, e.g. "
             "LL=8388608,16,64 for an 8 MiB share of a CI runner's last-level cache (repeatable)");
  cmd.option("--unavailable-exit-code", a.unavailable_exit_code,
             "exit with this code (6 to 255) when callgrind cannot run the program on this host (ctest's "
             "SKIP_RETURN_CODE shows it as skipped, with the reason)")
      .in_range(6, 255);
  cmd.flag("--suite", a.suite,
           "the command is an unchanged Google Benchmark suite: each benchmark runs alone under callgrind, and its "
           "instructions and estimated cycles are per iteration of its loop (no function profile)");
  cmd.option("--whole", a.whole,
             "NAME: the program marks nothing (a command-line tool, a test binary): its whole run, start-up "
             "included, is one step of the benchmark NAME, with its function profile");
  cmd.option("command", a.command,
             "after --: the program that marks its measured steps, the suite with --suite, any program with --whole")
      .required();
  return cmd;
}

int run_cost(const CostArgs& a) {
  try {
    CostRequest request = a;
    for (const auto& spec : a.cache_text) request.cache.push_back(parse_simulated_cache(spec, "cost: --cache"));
    measure_cost_into(request);
    return code_of(Exit::pass);
  } catch (const HostUnsupported& e) {
    std::cerr << "perfgate: unavailable: " << one_line(e.what()) << '\n';
    return a.unavailable_exit_code;
  }
}

}  // namespace perfgate
