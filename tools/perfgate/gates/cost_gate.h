#pragma once
// A program's per-step costs measured under callgrind and written as Google Benchmark JSON with its function
// profile beside it (<stem>.functions.tsv). `perfgate cost` and every cost gate of `perfgate gate` measure through it.
#include "model/simulated_cache.h"

#include <string>
#include <vector>

namespace perfgate {

struct CostRequest {
  std::string out;
  std::vector<std::string> context;   ///< KEY=VALUE pairs recorded in the results' context
  std::vector<SimulatedCache> cache;  ///< the caches callgrind simulates (none: this machine's)
  std::vector<std::string> command;   ///< the program that marks its measured steps, and its arguments
  std::vector<std::string> env;       ///< NAME=value added to the program's environment
  double timeout_seconds = 0.0;       ///< > 0: the run under valgrind is stopped after this long
  std::string tree;    ///< the tree whose commit the results record unless the context gives git_sha ("": ours)
  bool suite = false;  ///< the command is an unchanged Google Benchmark suite (CostSettings::google_benchmark_suite)
  std::string whole;   ///< non-empty: the whole program is one step of this benchmark (CostSettings::whole_program)
};

/// Measures the program and writes its results and function profile through the output discipline (both checked
/// before the long run). Throws HostUnsupported when callgrind cannot run it on this host, InputError for bad input.
void measure_cost_into(const CostRequest& request);

}  // namespace perfgate
