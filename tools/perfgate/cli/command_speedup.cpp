// perfgate speedup: the paired verdict of two benchmarks measured interleaved in one run. When the verdict is
// INCONCLUSIVE and a benchmark command is given after --, it runs that command for more repetitions, pools them
// with the first (repetition indices continue), and judges again, while the time budget lasts (at most 3 more
// runs: every further look at the data spends a little of the interval's error rate).
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "cli/numeric_options.h"
#include "gates/speedup_gate.h"

namespace perfgate {

CLI::App* add_speedup_command(CLI::App& app, SpeedupArgs& a) {
  auto* cmd = app.add_subcommand("speedup", "paired, interleaved speedup verdict: 0 pass, 1 fail, 3 inconclusive");
  cmd->footer(
      command_footer("perfgate speedup --results run.json --reference BM_Slow --candidate BM_Fast --threshold 3",
                     {Exit::pass, Exit::fail, Exit::inconclusive}));
  cmd->add_option("--results", a.results, "Google Benchmark JSON with repetitions of both")->required();
  cmd->add_option("--reference", a.reference, "run name of the slower, reference benchmark")->required();
  cmd->add_option("--candidate", a.candidate, "run name of the candidate benchmark")->required();
  cmd->add_option("--threshold", a.threshold, "required speedup (no default: the project's own floor)")
      ->required()
      ->check(positive_number());
  cmd->add_option("--confidence", a.confidence, "interval coverage")
      ->capture_default_str()
      ->check(finite_in(0.5, 0.9999));
  cmd->add_option("--more-seconds", a.more_seconds,
                  "when inconclusive, measure more for up to this long (needs -- COMMAND)")
      ->capture_default_str()
      ->check(finite_in(0.0, 86400.0));
  cmd->add_flag("--aim", a.aim, "the threshold is an aim: print reached / not reached and exit 0");
  cmd->add_option(
      "--baseline", a.baseline,
      "baseline with this pair's speedup (entry speedup:CANDIDATE/REFERENCE, field speedup): also FAIL when the "
      "interval lies wholly below it minus its tolerance");
  cmd->add_option("--out", a.out, "write the speedup and its interval as results JSON (for history and update)");
  cmd->add_option("command", a.command, "after --: the benchmark command that measures more repetitions of both");
  return cmd;
}

int run_speedup(const SpeedupArgs& a) { return judge_speedup_request(a).code; }

}  // namespace perfgate
