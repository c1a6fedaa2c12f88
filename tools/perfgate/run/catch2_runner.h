#pragma once
// Running a Catch2 test binary's benchmarks (perfgate catch2): Catch2 reports one mean per benchmark per run, so each
// run of the binary is one repetition.
#include "model/results.h"

#include <string>
#include <vector>

namespace perfgate {

/// Runs `suite` (the binary and its own arguments: a test spec, --benchmark-samples, ...) `runs` times, each with
/// `-r xml -o FILE` appended, and pools the reports (formats/catch2_xml.h): repetition r of each benchmark is its
/// mean in run r. Throws InputError when a run fails (naming the failed benchmark or test case when its report
/// does), runs past `timeout_seconds` (> 0), or reports no benchmark.
Results run_catch2(const std::vector<std::string>& suite, int runs, double timeout_seconds);

}  // namespace perfgate
