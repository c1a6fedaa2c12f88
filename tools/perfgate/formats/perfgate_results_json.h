#pragma once
// perfgate's own results format: what any harness or script writes to be judged by perfgate
// (docs/reference/results-formats.md). One member per (benchmark, field) with its unit and its repetitions:
//   {"perfgate_results": 1, "context": {"git_sha": "..."},
//    "measurements": [{"benchmark": "parse/large", "field": "real_time", "unit": "ms", "repetitions": [12.1, 11.9]}]}
#include "model/results.h"

#include <nlohmann/json.hpp>

#include <string>

namespace perfgate {

/// The format's version: the value of the perfgate_results member.
constexpr int kPerfgateResultsVersion = 1;

/// Reads the format. Throws InputError naming the source and the member for: not JSON, another version, a member the
/// format does not have (a misspelt key is never ignored), a context value that is not a string, an empty benchmark or
/// field, the same (benchmark, field) twice, no repetitions or more than kMaxRepetitions, a repetition that is not a
/// number, and a time (a unit among ns, us, ms, s) below zero or beyond any time. A repetition written null was not
/// measured: said in `notes` and kept in `not_finite`, as Google Benchmark's NaN is.
Results parse_perfgate_results_json(const std::string& text, const std::string& source);

/// The same, from a parsed document.
Results perfgate_results(const nlohmann::json& doc, const std::string& source);

/// The format's text for `results`: its context, and each (benchmark, field) with its unit and its repetitions in
/// order (counts written exactly as read; a repetition index missing between two read ones is not kept).
std::string perfgate_results_json_text(const Results& results);

}  // namespace perfgate
