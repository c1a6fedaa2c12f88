#pragma once
// Running a Google Benchmark executable once and reading what it measured.
#include "base/error.h"
#include "model/results.h"
#include "run/git.h"

#include <string>
#include <vector>

namespace perfgate {

/// The benchmark ran past its time limit and was stopped (with its process group).
class BenchmarkTimedOut : public InputError {
 public:
  using InputError::InputError;
};

/// Runs `command` (a benchmark executable and its arguments) with --benchmark_out=<out_file> and JSON format
/// appended, standard output discarded, and the commit it measures in its results' context (with_commit_context: the
/// commit of `tree`, perfgate's working folder when ""; where there is none, note_no_commit says why), and the host it
/// runs on (host_context_arguments). Throws
/// InputError when it fails or writes no readable results, and BenchmarkTimedOut when `timeout_seconds` > 0 passes
/// first.
Results run_benchmark(const std::vector<std::string>& command, const std::string& out_file,
                      const std::vector<std::string>& env = {}, double timeout_seconds = 0.0,
                      const std::string& tree = "");

/// The commit of `tree` (measured_commit), asked of git once per tree in a run of perfgate: a gate, an A/B or a
/// calibration runs many suites in one tree, and git's index refresh should not run before each measurement.
MeasuredCommit commit_of_tree(const std::string& tree);

/// Prints, once per run of perfgate, the note that results are written without their commit, and why.
void note_no_commit(const std::string& reason);

/// `command` with one more --benchmark_context=git_sha=<commit>. Google Benchmark (1.7) merges every context it is
/// given (the BENCHMARK_CONTEXT variable, then each --benchmark_context in order) and keeps the first value of a key,
/// so a git_sha the caller gives already wins.
std::vector<std::string> with_commit_context(const std::vector<std::string>& command, const std::string& commit);

}  // namespace perfgate
