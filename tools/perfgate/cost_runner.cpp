#include "cost_runner.h"

#include "error.h"
#include "process.h"
#include "read_file.h"
#include "temporary_folder.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// The context lines a measured program printed.
std::map<std::string, std::string> printed_context(const std::string& output) {
  std::map<std::string, std::string> context;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("context ", 0) != 0) continue;
    const auto space = line.find(' ', 8);
    if (space != std::string::npos) context[line.substr(8, space - 8)] = line.substr(space + 1);
  }
  return context;
}

std::string valgrind_version() {
  ProcessOptions quiet;
  quiet.standard_error = StandardError::discard;
  const auto r = run_process({"valgrind", "--version"}, quiet);
  if (r.status != 0) throw InputError("cost: valgrind is not installed (Debian package valgrind; tools/install-deps)");
  return output_tail(r.output, 40);
}

}  // namespace

CostRun measure_cost(const std::vector<std::string>& command) {
  if (command.empty()) throw InputError("cost: no program to measure");
  CostRun run;
  run.valgrind = valgrind_version();
  const TemporaryFolder dumps("cost");
  std::vector<std::string> argv = {"valgrind", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes",
                                   "--callgrind-out-file=" + (dumps.path() / "callgrind.out").string()};
  argv.insert(argv.end(), command.begin(), command.end());
  const auto start = std::chrono::steady_clock::now();
  ProcessOptions merged;
  merged.standard_error = StandardError::merge;
  const auto result = run_process(argv, merged);
  if (result.status != 0) {
    throw InputError("cost: the measured program failed under valgrind (exit " + std::to_string(result.status) +
                     "): " + output_tail(result.output));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.context = printed_context(result.output);

  std::vector<std::pair<std::string, CallgrindDump>> files;
  for (const auto& entry : fs::directory_iterator(dumps.path())) {
    const auto path = entry.path().string();
    const auto text = read_whole_file(path, "callgrind output");
    if (is_client_request_dump(text)) files.emplace_back(path, parse_callgrind_dump(text, path));
  }
  std::sort(files.begin(), files.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<CallgrindDump> in_order;
  for (auto& [path, dump] : files) in_order.push_back(std::move(dump));
  run.regions = region_costs(in_order);
  if (run.regions.empty()) {
    throw InputError("cost: the program dumped no named region (CALLGRIND_DUMP_STATS_AT); is it built with <valgrind/callgrind.h>?");
  }
  return run;
}

}  // namespace perfgate
