#pragma once
// Running a Google Benchmark executable once and reading what it measured.
#include "results.h"

#include <string>
#include <vector>

namespace perfgate {

/// Runs `command` (a benchmark executable and its arguments) with --benchmark_out=<out_file> and JSON format
/// appended, standard output discarded; throws InputError when it fails or writes no readable results.
Results run_benchmark(const std::vector<std::string>& command, const std::string& out_file, const std::vector<std::string>& env = {});

}  // namespace perfgate
