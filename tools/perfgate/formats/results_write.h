#pragma once
// Results written back as Google Benchmark JSON: what perfgate measured more of (a speedup's pooled repetitions)
// kept in the results file it extends, readable by every command that reads results.
#include "model/results.h"

#include <string>

namespace perfgate {

/// Google Benchmark JSON text of `results`: its string context, and one iteration run per benchmark and repetition
/// (run_type "iteration", iterations 1: the per-repetition values are already per iteration) holding every field
/// measured for it; counts written exactly as read.
std::string results_json_text(const Results& results);

}  // namespace perfgate
