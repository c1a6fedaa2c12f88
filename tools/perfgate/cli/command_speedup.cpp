// perfgate speedup: the paired verdict of two benchmarks measured interleaved in one run. When the verdict is
// INCONCLUSIVE and a benchmark command is given after --, it runs that command for more repetitions, pools them
// with the first (repetition indices continue), and judges again, while the time budget lasts (at most 3 more
// runs: every further look at the data spends a little of the interval's error rate).
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "gates/speedup_gate.h"

namespace perfgate {

Command add_speedup_command(CLI::App& app, SpeedupArgs& a) {
  Command cmd(app, "speedup", "paired, interleaved speedup verdict: 0 pass, 1 fail, 3 inconclusive");
  cmd.footer(command_footer("perfgate speedup --results run.json --reference BM_Slow --candidate BM_Fast --threshold 3",
                            {Exit::pass, Exit::fail, Exit::inconclusive}));
  cmd.option("--results", a.results, "results with repetitions of both (any format perfgate reads)").required();
  cmd.option("--reference", a.reference, "run name of the slower, reference benchmark").required();
  cmd.option("--candidate", a.candidate, "run name of the candidate benchmark").required();
  cmd.option("--threshold", a.threshold, "required speedup (no default: the project's own floor)")
      .required()
      .positive();
  cmd.option("--confidence", a.confidence, "interval coverage").show_default().in_range(0.5, 0.9999);
  cmd.option("--more-seconds", a.more_seconds, "when inconclusive, measure more for up to this long (needs -- COMMAND)")
      .show_default()
      .in_range(0.0, 86400.0);
  cmd.flag("--aim", a.aim, "the threshold is an aim: print reached / not reached and exit 0");
  cmd.option("--baseline", a.baseline,
             "baseline with this pair's speedup (entry speedup:CANDIDATE/REFERENCE, field speedup): also FAIL when the "
             "interval lies wholly below it minus its tolerance");
  cmd.option("--out", a.out, "write the speedup and its interval as results JSON (for history and update)");
  cmd.option("command", a.command, "after --: the benchmark command that measures more repetitions of both");
  return cmd;
}

int run_speedup(const SpeedupArgs& a) { return judge_speedup_request(a).code; }

}  // namespace perfgate
