// perfgate cost: runs a program under valgrind's callgrind and writes its per-step costs as Google Benchmark JSON.
// The program marks what it measures (see perf_tests/cost_step.cpp): instrumentation off at start, and each
// measured step ends with CALLGRIND_DUMP_STATS_AT(<benchmark name>). Every such dump becomes one repetition of that
// benchmark with the counters `instructions` and `estimated_cycles`, which `perfgate compare` judges against a
// baseline like any other result. Lines "context KEY VALUE" on the program's standard output are recorded in the
// results' context.
#include "atomic_write.h"
#include "callgrind_dump.h"
#include "commands.h"
#include "error.h"
#include "git.h"
#include "process.h"
#include "read_file.h"
#include "temporary_folder.h"
#include "utc_time.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
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
  const auto r = run_process({"valgrind", "--version"}, ProcessOptions{"", {}, StandardError::discard, true});
  if (r.status != 0) throw InputError("cost: valgrind is not installed (Debian package valgrind; tools/install-deps)");
  return output_tail(r.output, 40);
}

}  // namespace

CLI::App* add_cost_command(CLI::App& app, CostArgs& a) {
  auto* cmd = app.add_subcommand("cost", "instruction counts and cycle estimates per measured step, under callgrind");
  cmd->add_option("--out", a.out, "Google Benchmark JSON to write (counters instructions, estimated_cycles)")->required();
  cmd->add_option("--context", a.context, "KEY=VALUE recorded in the results' context (repeatable)");
  cmd->add_option("command", a.command, "after --: the program that marks its measured steps")->required();
  return cmd;
}

int run_cost(const CostArgs& a) {
  nlohmann::json context = {{"date", utc_now()}, {"executable", a.command.front()},
                            {"cost_tool", "callgrind (" + valgrind_version() + "), cache simulation"}};
  for (const auto& pair : a.context) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("cost: --context wants KEY=VALUE, got '" + pair + "'");
    context[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  const TemporaryFolder dumps("cost");
  std::vector<std::string> argv = {"valgrind", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes",
                                   "--callgrind-out-file=" + (dumps.path() / "callgrind.out").string()};
  argv.insert(argv.end(), a.command.begin(), a.command.end());
  const auto start = std::chrono::steady_clock::now();
  const auto run = run_process(argv, ProcessOptions{"", {}, StandardError::merge, true});
  if (run.status != 0) {
    throw InputError("cost: the measured program failed under valgrind (exit " + std::to_string(run.status) +
                     "): " + output_tail(run.output));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& [key, value] : printed_context(run.output)) context[key] = value;

  std::vector<std::pair<std::string, CallgrindDump>> files;
  for (const auto& entry : fs::directory_iterator(dumps.path())) {
    const auto path = entry.path().string();
    const auto text = read_whole_file(path, "callgrind output");
    if (is_client_request_dump(text)) files.emplace_back(path, parse_callgrind_dump(text, path));
  }
  std::sort(files.begin(), files.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<CallgrindDump> in_order;
  for (auto& [path, dump] : files) in_order.push_back(std::move(dump));
  const auto regions = region_costs(in_order);
  if (regions.empty()) {
    throw InputError("cost: the program dumped no named region (CALLGRIND_DUMP_STATS_AT); is it built with <valgrind/callgrind.h>?");
  }

  nlohmann::json benchmarks = nlohmann::json::array();
  for (const auto& r : regions) {
    for (size_t i = 0; i < r.instructions.size(); ++i) {
      benchmarks.push_back({{"name", r.name}, {"run_name", r.name}, {"run_type", "iteration"},
                            {"repetitions", r.instructions.size()}, {"repetition_index", i}, {"iterations", 1},
                            {"instructions", r.instructions[i]}, {"estimated_cycles", r.estimated_cycles[i]}});
    }
    std::cout << r.name << ": " << r.instructions.size() << " steps, instructions per step";
    for (double v : r.instructions) std::cout << ' ' << static_cast<long long>(v);
    std::cout << '\n';
  }
  write_file_atomically(a.out, nlohmann::json{{"context", context}, {"benchmarks", benchmarks}}.dump(2) + "\n");
  std::cout << "wrote " << a.out << " (" << regions.size() << " benchmarks, " << static_cast<int>(seconds)
            << " s under valgrind)\n";
  return 0;
}

}  // namespace perfgate
