// perfgate profile: runs perf_tests/profile_step (which records a Chrome trace of training steps with LibTorch's
// profiler) and prints where the time went, by operator self time. perfgate itself never links the core.
#include "atomic_write.h"
#include "cli_help.h"
#include "commands.h"
#include "read_file.h"
#include "error.h"
#include "one_line.h"
#include "process.h"
#include "temporary_folder.h"
#include "trace_summary.h"

#include <unistd.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace perfgate {
namespace {

// profile_step is built next to perfgate (build/<preset>/bin).
std::string default_binary() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("profile_step") : (self.parent_path() / "profile_step").string();
}

}  // namespace

CLI::App* add_profile_command(CLI::App& app, ProfileArgs& a) {
  auto* cmd = app.add_subcommand("profile", "Chrome trace of training steps, and the operators that take the time");
  cmd->footer(command_footer("perfgate profile --grid 128 --steps 3 --top 5",
                              "0 done, 2 bad input"));
  cmd->add_option("--out", a.out, "trace file to write (open in chrome://tracing or ui.perfetto.dev)")->capture_default_str();
  cmd->add_option("--pipeline", a.pipeline, "reference or optimized")->capture_default_str()->check(CLI::IsMember({"reference", "optimized"}));
  cmd->add_option("--steps", a.steps, "training steps traced")->capture_default_str()->check(CLI::Range(1, 1000));
  cmd->add_option("--grid", a.grid, "grid size N (a multiple of 64 up to 4096, as profile_step needs)")
      ->capture_default_str()
      ->check(CLI::Range(64, 4096) & CLI::Validator([](std::string& v) { return std::stol(v) % 64 == 0 ? std::string() : "not a multiple of 64"; }, ""));
  cmd->add_option("--top", a.top, "operators listed")->capture_default_str()->check(CLI::Range(1, 1000));
  cmd->add_option("--binary", a.binary, "the profile_step executable (default: next to perfgate)");
  cmd->add_option("--trace", a.trace, "summarise this existing trace instead of recording one");
  return cmd;
}

int run_profile(const ProfileArgs& a) {
  std::string trace = a.trace;
  std::string text;
  if (trace.empty()) {
    trace = a.out;
    require_replaceable(trace);  // before the run: a folder or a device at --out is refused, never removed
    require_not_an_input(trace, "--out", {a.binary.empty() ? default_binary() : a.binary});  // nor the program recording it
    // The program records into a private folder, so that an earlier trace at --out is neither summarised as this
    // run's nor lost when the program fails; the new trace replaces it only once it has been read.
    TemporaryFolder folder("profile");
    const auto recorded = (folder.path() / "trace.json").string();
    const auto binary = a.binary.empty() ? default_binary() : a.binary;
    ProcessOptions options;
    options.standard_error = StandardError::merge;
    const auto r = run_process({binary, recorded, a.pipeline, std::to_string(a.steps), std::to_string(a.grid)}, options);
    if (r.status != 0) {
      const auto why = output_tail(r.output);
      throw InputError("profile: '" + binary + "' " + (r.status < 0 ? "could not run" : "failed") + (why.empty() ? "" : ": " + why));
    }
    text = read_whole_file(recorded, "trace");
  } else {
    text = read_whole_file(trace, "trace");
  }
  const auto s = summarise_trace(text, trace);
  if (a.trace.empty()) write_file_atomically(a.out, text);  // only a trace that could be read replaces the earlier one
  const double steps = a.trace.empty() ? static_cast<double>(a.steps) : 1.0;
  std::cout << "trace " << one_line(trace) << ": " << s.events << " events, " << std::fixed << std::setprecision(2) << s.wall_us / 1000.0
            << " ms traced" << (a.trace.empty() ? " over " + std::to_string(a.steps) + " " + a.pipeline + " steps at N=" + std::to_string(a.grid) : "")
            << "\n"
            << std::left << std::setw(48) << "operator" << std::right << std::setw(8) << "calls" << std::setw(14)
            << (a.trace.empty() ? "self ms/step" : "self ms") << std::setw(15) << (a.trace.empty() ? "total ms/step" : "total ms") << '\n';
  for (size_t i = 0; i < s.operators.size() && static_cast<int>(i) < a.top; ++i) {
    const auto& op = s.operators[i];
    std::cout << std::left << std::setw(48) << one_line(op.name).substr(0, 47) << std::right << std::setw(8) << op.calls << std::setw(14)
              << op.self_us / 1000.0 / steps << std::setw(15) << op.total_us / 1000.0 / steps << '\n';
  }
  return 0;
}

}  // namespace perfgate
