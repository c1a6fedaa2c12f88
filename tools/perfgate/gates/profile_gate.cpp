#include "gates/profile_gate.h"

#include "base/error.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "model/trace_summary.h"
#include "run/process.h"

#include <filesystem>
#include <iomanip>
#include <iostream>

namespace perfgate {

void record_profile(const ProfileRequest& a) {
  if (a.trace.empty() == a.command.empty())
    throw InputError("profile: give the recording program after --, or --trace FILE");
  if (a.per_name.empty() || a.per_name.size() > 16 || one_line(a.per_name) != a.per_name) {
    throw InputError("profile: --per-name must be a short word (at most 16 characters)");
  }
  std::string trace = a.trace;
  std::string text;
  Outputs outputs("profile");
  if (trace.empty()) {
    trace = a.out;
    outputs.read(a.command);  // before the run: the program recording it, a file it is given, a folder or a device at
                              // --out is refused
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
      throw InputError("profile: '" + argv.front() + "' " + (r.status < 0 ? "could not run" : "failed") +
                       (why.empty() ? "" : ": " + why));
    }
    std::error_code ignored;
    if (!std::filesystem::exists(recorded, ignored)) {
      throw InputError("profile: '" + argv.front() + "' wrote no trace (it is given the path " +
                       (placed ? "at {trace}" : "in $PERFGATE_TRACE") + ")");
    }
    text = read_whole_file(recorded, "trace");
  } else {
    text = read_whole_file(trace, "trace");
  }
  const auto s = summarise_trace(text, trace);
  if (a.trace.empty()) outputs.write(a.out, text);  // only a trace that could be read replaces the earlier one
  const double per = static_cast<double>(a.per);
  const std::string unit = a.per > 1 ? "/" + a.per_name : "";
  std::cout << "trace " << one_line(trace) << ": " << s.events << " events, " << std::fixed << std::setprecision(2)
            << s.wall_us / 1000.0 << " ms traced"
            << (a.per > 1 ? " over " + std::to_string(a.per) + " " + a.per_name + "s" : "") << "\n"
            << std::left << std::setw(48) << "operator" << std::right << std::setw(8) << "calls" << std::setw(14)
            << ("self ms" + unit) << std::setw(15) << ("total ms" + unit) << '\n';
  for (size_t i = 0; i < s.operators.size() && static_cast<int>(i) < a.top; ++i) {
    const auto& op = s.operators[i];
    std::cout << std::left << std::setw(48) << one_line(op.name).substr(0, 47) << std::right << std::setw(8) << op.calls
              << std::setw(14) << op.self_us / 1000.0 / per << std::setw(15) << op.total_us / 1000.0 / per << '\n';
  }
}

}  // namespace perfgate
