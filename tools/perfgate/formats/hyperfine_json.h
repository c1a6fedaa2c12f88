#pragma once
// hyperfine's JSON export (--export-json) as results: each command a benchmark, each of its runs a repetition.
#include "model/results.h"

#include <nlohmann/json.hpp>

#include <string>

namespace perfgate {

/// Reads hyperfine's export. Each result's "command" (its --command-name when given) is the benchmark; its "times"
/// are the field real_time in seconds, one repetition per run; "memory_usage_byte" (hyperfine 1.17 and later), when
/// present with one value per run, is the field memory_usage in bytes. The summary figures (mean, median, stddev, min,
/// max, and user and system, which hyperfine reports as means alone) are statistics of the runs, not read: perfgate
/// computes its own from the repetitions; of an export of one run (hyperfine --runs 1, as perfgate time runs it),
/// user plus system is that run's cpu_time in seconds. Throws InputError naming the source for: not JSON, no "results"
/// array, a result without a command or without times, the same command twice, a time that is not a non-negative
/// number, and a run whose command failed (an exit code other than 0, or none: killed by a signal) — hyperfine keeps
/// such runs only with --ignore-failure, and a failed run's time is not the program's.
Results parse_hyperfine_json(const std::string& text, const std::string& source);

/// The same, from a parsed document.
Results hyperfine_results(const nlohmann::json& doc, const std::string& source);

}  // namespace perfgate
