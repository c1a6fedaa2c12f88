#pragma once
// perfgate's runners for suites of other harnesses (perfgate time, perfgate catch2): each measures, then writes
// perfgate results JSON (formats/perfgate_results_json.h) with the commit and host it was given, to --out or to
// Google Benchmark's --benchmark_out, so that every command that runs a suite runs these as it runs a Google
// Benchmark suite (run/suite_flags.h).
#include "run/command_timer.h"

#include <string>
#include <vector>

namespace perfgate {

struct TimeRequest {
  std::vector<std::string> words;  ///< NAME=COMMAND words, and Google Benchmark's flags wherever they stand
  std::string out;                 ///< --out; "" when --benchmark_out gives the file
  TimingPlan plan;
};
/// Times the commands (run/command_timer.h) and writes their results. --benchmark_repetitions replaces plan.runs;
/// --benchmark_filter selects commands by name before any runs. Throws InputError for bad words (not NAME=COMMAND,
/// an empty or repeated name), no output file or two different ones, and everything time_commands throws; nothing
/// is written then.
void time_commands_into(const TimeRequest& request);

struct Catch2Request {
  std::vector<std::string> words;  ///< the test binary and its arguments, and Google Benchmark's flags
  std::string out;
  int runs = 1;
  double timeout_seconds = 0.0;
};
/// Runs the binary (run/catch2_runner.h) and writes its results; --benchmark_repetitions replaces runs,
/// --benchmark_filter keeps the benchmarks whose names it matches. Throws as time_commands_into does.
void run_catch2_into(const Catch2Request& request);

}  // namespace perfgate
