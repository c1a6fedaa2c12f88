#include "run/benchmark_runner.h"

#include "base/error.h"
#include "run/process.h"

#include <filesystem>

namespace perfgate {

Results run_benchmark(const std::vector<std::string>& command, const std::string& out_file,
                      const std::vector<std::string>& env, double timeout_seconds) {
  if (command.empty()) throw InputError("no benchmark command given");
  auto argv = command;
  argv.push_back("--benchmark_out=" + out_file);
  argv.push_back("--benchmark_out_format=json");
  std::filesystem::remove(out_file);
  ProcessOptions options;
  options.env = env;
  options.standard_error = StandardError::merge;
  options.timeout_seconds = timeout_seconds;
  const auto r = run_process(argv, options);
  if (r.timed_out) {
    throw BenchmarkTimedOut("'" + command.front() + "' did not finish within " +
                            std::to_string(static_cast<int>(timeout_seconds + 0.5)) + " s and was stopped");
  }
  if (r.status != 0) {
    const auto last_words = output_tail(r.output, 200);
    throw InputError(
        "'" + command.front() + "' " +
        (r.status < 0 ? std::string("could not run or crashed") : "exited with " + std::to_string(r.status)) +
        (last_words.empty() ? "" : ": " + last_words));
  }
  return read_results(out_file);
}

}  // namespace perfgate
