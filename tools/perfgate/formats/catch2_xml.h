#pragma once
// Catch2's XML reporter (-r xml) as results: each BENCHMARK a benchmark, one repetition per run of the test binary.
#include "model/results.h"

#include <string>

namespace perfgate {

/// Reads a Catch2 XML report, version 2 (root element Catch) or 3 (root element Catch2TestRun). Each BenchmarkResults
/// is the benchmark of its name, with the field real_time in nanoseconds: the mean of its samples, as Catch2 reports
/// it. One report is one repetition; repetitions come from running the binary again (perfgate catch2, or one report
/// per run given to any command that pools results). The bounds, standard deviation and outliers are statistics of
/// the samples within one run, not read. The version, where the report names it, is recorded as the context's
/// harness. Throws InputError naming the source for: not XML, another root, a benchmark without a name or a mean, the
/// same benchmark name twice in one report (names are the benchmarks' identity: keep them unique across test cases),
/// a benchmark that failed (its <failed> element), a benchmark in a test case that failed, and a report of no
/// benchmark.
Results parse_catch2_xml(const std::string& text, const std::string& source);

}  // namespace perfgate
