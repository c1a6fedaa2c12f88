#pragma once
// Google Benchmark's JSON output (--benchmark_out_format=json) as results.
#include "model/results.h"

#include <nlohmann/json.hpp>

#include <string>

namespace perfgate {

/// Reads Google Benchmark JSON text; `source` names it in messages. A context without machine_fingerprint gets one
/// derived from Google Benchmark's own context (machine_identity.h), with its description as "machine" when that is
/// absent too. Throws InputError naming the source and what is wrong: not JSON (or nested deeper than kMaxJsonDepth),
/// no "benchmarks" array, a run without a name, an unknown time_unit, a run of zero iterations, a non-numeric value,
/// two runs with the same name and repetition index, a file of aggregates alone. A value Google Benchmark wrote as NaN
/// or Infinity (or null) is not measured, said in `notes` and kept in `not_finite`.
Results parse_google_benchmark_json(const std::string& text, const std::string& source);

/// The same, from the document parse_json_input made of non_finite_as_null(text).
Results google_benchmark_results(const nlohmann::json& doc, const std::string& source);

/// `text` with each NaN or Infinity token outside a string (Google Benchmark's spelling of a figure it cannot compute;
/// other writers print nan or inf) made null, which JSON has. Linear in the text.
std::string non_finite_as_null(const std::string& text);

}  // namespace perfgate
