// perfgate profile: runs a program that records a Chrome trace (the trace-event JSON that LibTorch's, Perfetto's and
// Chrome's profilers write) and prints where the time went, by operator self time; or summarises an existing trace.
// The program is told where to write by "{trace}" in its arguments, or else by the environment variable
// PERFGATE_TRACE; it records into a private folder, so an earlier trace at --out is never summarised as this run's.
#include "base/output_files.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "base/read_file.h"
#include "base/error.h"
#include "base/one_line.h"
#include "run/process.h"
#include "base/temporary_folder.h"
#include "model/trace_summary.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace perfgate {

CLI::App* add_profile_command(CLI::App& app, ProfileArgs& a) {
  auto* cmd = app.add_subcommand("profile", "record a program's Chrome trace and list the operators that take the time");
  cmd->footer(command_footer("perfgate profile --out trace.json --per 5 --per-name step -- build/profile_program {trace} 5",
                              {Exit::pass}, "bad input includes a program that fails or writes no trace"));
  cmd->add_option("--out", a.out, "trace file to write (open in chrome://tracing or ui.perfetto.dev)")->capture_default_str();
  cmd->add_option("--per", a.per, "how many times the traced program did the work: times are divided by it")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--per-name", a.per_name, "what one of those is called in the table, e.g. step")->capture_default_str();
  cmd->add_option("--top", a.top, "operators listed")->capture_default_str()->check(CLI::Range(1, 1000));
  cmd->add_option("--trace", a.trace, "summarise this existing trace instead of recording one");
  cmd->add_option("command", a.command, "after --: the program that records the trace, with {trace} where its path goes");
  return cmd;
}

int run_profile(const ProfileArgs& a) {
  if (a.trace.empty() == a.command.empty()) throw InputError("profile: give the recording program after --, or --trace FILE");
  if (a.per_name.empty() || a.per_name.size() > 16 || one_line(a.per_name) != a.per_name) {
    throw InputError("profile: --per-name must be a short word (at most 16 characters)");
  }
  std::string trace = a.trace;
  std::string text;
  Outputs outputs("profile");
  if (trace.empty()) {
    trace = a.out;
    outputs.read(a.command);  // before the run: the program recording it, a file it is given, a folder or a device at --out is refused
    outputs.file(trace, "--out");
    TemporaryFolder folder("profile");
    const auto recorded = (folder.path() / "trace.json").string();
    auto argv = a.command;
    bool placed = false;
    for (auto& word : argv) {
      if (word == "{trace}") word = recorded, placed = true;
    }
    ProcessOptions options;
    options.standard_error = StandardError::merge;
    options.env = a.env;
    if (!placed) options.env.push_back("PERFGATE_TRACE=" + recorded);
    const auto r = run_process(argv, options);
    if (r.status != 0) {
      const auto why = output_tail(r.output);
      throw InputError("profile: '" + argv.front() + "' " + (r.status < 0 ? "could not run" : "failed") + (why.empty() ? "" : ": " + why));
    }
    std::error_code ignored;
    if (!std::filesystem::exists(recorded, ignored)) {
      throw InputError("profile: '" + argv.front() + "' wrote no trace (it is given the path " + (placed ? "at {trace}" : "in $PERFGATE_TRACE") + ")");
    }
    text = read_whole_file(recorded, "trace");
  } else {
    text = read_whole_file(trace, "trace");
  }
  const auto s = summarise_trace(text, trace);
  if (a.trace.empty()) outputs.write(a.out, text);  // only a trace that could be read replaces the earlier one
  const double per = static_cast<double>(a.per);
  const std::string unit = a.per > 1 ? "/" + a.per_name : "";
  std::cout << "trace " << one_line(trace) << ": " << s.events << " events, " << std::fixed << std::setprecision(2) << s.wall_us / 1000.0
            << " ms traced" << (a.per > 1 ? " over " + std::to_string(a.per) + " " + a.per_name + "s" : "") << "\n"
            << std::left << std::setw(48) << "operator" << std::right << std::setw(8) << "calls" << std::setw(14)
            << ("self ms" + unit) << std::setw(15) << ("total ms" + unit) << '\n';
  for (size_t i = 0; i < s.operators.size() && static_cast<int>(i) < a.top; ++i) {
    const auto& op = s.operators[i];
    std::cout << std::left << std::setw(48) << one_line(op.name).substr(0, 47) << std::right << std::setw(8) << op.calls << std::setw(14)
              << op.self_us / 1000.0 / per << std::setw(15) << op.total_us / 1000.0 / per << '\n';
  }
  return 0;
}

}  // namespace perfgate
