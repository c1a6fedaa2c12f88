#pragma once
// Running a Google Benchmark executable once and reading what it measured.
#include "base/error.h"
#include "model/results.h"

#include <string>
#include <vector>

namespace perfgate {

/// The benchmark ran past its time limit and was stopped (with its process group).
class BenchmarkTimedOut : public InputError {
 public:
  using InputError::InputError;
};

/// Runs `command` (a benchmark executable and its arguments) with --benchmark_out=<out_file> and JSON format
/// appended, standard output discarded; throws InputError when it fails or writes no readable results, and
/// BenchmarkTimedOut when `timeout_seconds` > 0 passes first.
Results run_benchmark(const std::vector<std::string>& command, const std::string& out_file,
                      const std::vector<std::string>& env = {}, double timeout_seconds = 0.0);

}  // namespace perfgate
