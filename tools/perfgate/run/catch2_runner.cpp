#include "run/catch2_runner.h"

#include "base/error.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "formats/catch2_xml.h"
#include "run/process.h"

#include <filesystem>

namespace perfgate {

Results run_catch2(const std::vector<std::string>& suite, int runs, double timeout_seconds) {
  if (suite.empty()) throw InputError("no Catch2 test binary given");
  TemporaryFolder scratch("catch2");
  Results pooled;
  for (int run = 0; run < runs; ++run) {
    const auto report = (scratch.path() / ("run" + std::to_string(run) + ".xml")).string();
    auto argv = suite;
    argv.insert(argv.end(), {"-r", "xml", "-o", report});
    ProcessOptions options;
    options.standard_error = StandardError::merge;
    options.timeout_seconds = timeout_seconds;
    const auto r = run_process(argv, options);
    const std::string which = "'" + suite.front() + "' (run " + std::to_string(run) + ")";
    if (r.timed_out) throw InputError(which + " did not finish within its time limit and was stopped");
    if (r.status != 0) {
      // The report names what failed; without one, the program's own last words.
      std::string why = output_tail(r.output, 200);
      if (std::filesystem::is_regular_file(report)) {
        try {
          (void)parse_catch2_xml(read_whole_file(report, "Catch2 report"), report);
        } catch (const InputError& e) {
          why = e.what();
        }
      }
      throw InputError(
          which + " " +
          (r.status < 0 ? std::string("could not run or crashed") : "exited with " + std::to_string(r.status)) +
          (why.empty() ? "" : ": " + why));
    }
    auto one = parse_catch2_xml(read_whole_file(report, "Catch2 report"), report);
    if (run == 0) {
      pooled.context = one.context;
      pooled.measurements = std::move(one.measurements);
    } else {
      append_repetitions(pooled, one);
    }
  }
  pooled.source = suite.front();
  return pooled;
}

}  // namespace perfgate
