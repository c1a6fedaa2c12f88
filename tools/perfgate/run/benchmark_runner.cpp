#include "run/benchmark_runner.h"

#include "base/error.h"
#include "base/one_line.h"
#include "formats/results_input.h"
#include "run/git.h"
#include "run/host_context.h"
#include "run/process.h"

#include <filesystem>
#include <iostream>
#include <map>

namespace perfgate {

MeasuredCommit commit_of_tree(const std::string& tree) {
  static std::map<std::string, MeasuredCommit> known;
  const auto found = known.find(tree);
  if (found != known.end()) return found->second;
  return known.emplace(tree, measured_commit(tree)).first->second;
}

void note_no_commit(const std::string& reason) {
  static bool said = false;  // once per run of perfgate: a gate runs many suites in one tree
  if (!said) std::cout << "note: the results record no commit: " << one_line(reason) << std::endl;
  said = true;
}

std::vector<std::string> with_commit_context(const std::vector<std::string>& command, const std::string& commit) {
  auto argv = command;
  argv.push_back("--benchmark_context=git_sha=" + commit);
  return argv;
}

Results run_benchmark(const std::vector<std::string>& command, const std::string& out_file,
                      const std::vector<std::string>& env, double timeout_seconds, const std::string& tree) {
  if (command.empty()) throw InputError("no benchmark command given");
  const auto commit = commit_of_tree(tree.empty() ? std::string(".") : tree);
  auto argv = commit.commit.empty() ? command : with_commit_context(command, commit.commit);
  if (commit.commit.empty()) note_no_commit(commit.reason);
  for (const auto& host : host_context_arguments()) argv.push_back(host);
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
