#include "benchmark_runner.h"

#include "error.h"
#include "process.h"

#include <filesystem>

namespace perfgate {

Results run_benchmark(const std::vector<std::string>& command, const std::string& out_file, const std::vector<std::string>& env) {
  if (command.empty()) throw InputError("no benchmark command given");
  auto argv = command;
  argv.push_back("--benchmark_out=" + out_file);
  argv.push_back("--benchmark_out_format=json");
  std::filesystem::remove(out_file);
  ProcessOptions options;
  options.env = env;
  options.standard_error = StandardError::merge;
  const auto r = run_process(argv, options);
  if (r.status != 0) {
    const auto last_words = output_tail(r.output, 200);
    throw InputError("'" + command.front() + "' " + (r.status < 0 ? std::string("could not run or crashed") : "exited with " + std::to_string(r.status)) +
                     (last_words.empty() ? "" : ": " + last_words));
  }
  return read_results(out_file);
}

}  // namespace perfgate
