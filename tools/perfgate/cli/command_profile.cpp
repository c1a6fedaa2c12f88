// perfgate profile: runs a program that records a Chrome trace (the trace-event JSON that LibTorch's, Perfetto's and
// Chrome's profilers write) and prints where the time went, by operator self time; or summarises an existing trace.
// The program is told where to write by "{trace}" in its arguments, or else by the environment variable
// PERFGATE_TRACE; it records into a private folder, so an earlier trace at --out is never summarised as this run's.
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "gates/profile_gate.h"

namespace perfgate {

Command add_profile_command(CLI::App& app, ProfileArgs& a) {
  Command cmd(app, "profile", "record a program's Chrome trace and list the operators that take the time");
  cmd.footer(
      command_footer("perfgate profile --out trace.json --per 5 --per-name step -- build/profile_program {trace} 5",
                     {Exit::pass}, "bad input includes a program that fails or writes no trace"));
  cmd.option("--out", a.out, "trace file to write (open in chrome://tracing or ui.perfetto.dev)").show_default();
  cmd.option("--per", a.per, "how many times the traced program did the work: times are divided by it")
      .show_default()
      .in_range(1, 1000000);
  cmd.option("--per-name", a.per_name, "what one of those is called in the table, e.g. step").show_default();
  cmd.option("--top", a.top, "operators listed").show_default().in_range(1, 1000);
  cmd.option("--trace", a.trace, "summarise this existing trace instead of recording one");
  cmd.option("command", a.command, "after --: the program that records the trace, with {trace} where its path goes");
  return cmd;
}

int run_profile(const ProfileArgs& a) {
  record_profile(a);
  return code_of(Exit::pass);
}

}  // namespace perfgate
