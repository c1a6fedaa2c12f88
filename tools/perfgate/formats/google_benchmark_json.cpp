#include "formats/google_benchmark_json.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/time_units.h"
#include "model/machine_identity.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace perfgate {
namespace {

// Fields of a run that are bookkeeping, not measurements.
const std::set<std::string> kNonMeasurements = {"name",
                                                "family_index",
                                                "per_family_instance_index",
                                                "run_name",
                                                "run_type",
                                                "repetitions",
                                                "repetition_index",
                                                "threads",
                                                "iterations",
                                                "time_unit",
                                                "aggregate_name",
                                                "aggregate_unit",
                                                "label",
                                                "error_occurred",
                                                "error_message",
                                                "big_o",
                                                "rms"};

// A string member, `fallback` when absent; InputError when present with another type.
std::string string_field(const nlohmann::json& run, const std::string& key, const std::string& fallback,
                         const std::string& where) {
  if (!run.contains(key)) return fallback;
  if (!run[key].is_string()) throw InputError(where + " field '" + key + "' is not a string");
  return run[key].get<std::string>();
}

}  // namespace

// (formats/google_benchmark_json.h) Google Benchmark writes a figure it cannot compute as a bare NaN or Infinity (its
// JSON writer's spelling; e.g. the coefficient of variation of a counter that is 0 in every repetition), which JSON
// does not have; other writers print nan or inf. Each such token outside a string, where a value starts, becomes null.
// Linear in the text.
std::string non_finite_as_null(const std::string& text) {
  static const char* const kTokens[] = {"-Infinity", "Infinity", "-NaN", "NaN", "-nan", "nan", "-inf", "inf"};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  char before = '\0';  // the last character outside a string that is not white space
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
        before = '"';
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    if ((before == ':' || before == '[' || before == ',') &&
        (c == '-' || c == 'N' || c == 'I' || c == 'n' || c == 'i')) {
      bool matched = false;
      for (const char* token : kTokens) {
        const size_t n = std::char_traits<char>::length(token);
        if (text.compare(i, n, token) != 0) continue;  // (compare stops at the text's end: i + n may pass it)
        const bool ends = i + n == text.size() || !std::isalnum(static_cast<unsigned char>(text[i + n]));
        if (ends) {
          out += "null";
          i += n - 1;
          matched = true;
          break;
        }
      }
      if (matched) {
        before = 'l';
        continue;
      }
    }
    out += c;
    if (!std::isspace(static_cast<unsigned char>(c))) before = c;
  }
  return out;
}

Results parse_google_benchmark_json(const std::string& text, const std::string& source) {
  return google_benchmark_results(parse_json_input(non_finite_as_null(text), source), source);
}

Results google_benchmark_results(const nlohmann::json& doc, const std::string& source) {
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
    throw InputError(source + ": not a Google Benchmark result (no \"benchmarks\" array)");
  }
  Results results;
  results.source = source;
  if (doc.contains("context") && doc["context"].is_object()) {
    for (const auto& [key, value] : doc["context"].items()) {
      if (value.is_string()) results.context[key] = value.get<std::string>();
    }
    // Suites that do not name their machine get one derived from Google Benchmark's context, so that advisory
    // timings still compare like with like.
    if (results.context.count("machine_fingerprint") == 0) {
      if (const auto id = identity_from_benchmark_context(doc["context"])) {
        results.context["machine_fingerprint"] = id->fingerprint;
        if (results.context.count("machine") == 0) results.context["machine"] = id->description;
      }
    }
  }
  std::set<std::pair<std::string, int>> seen;
  size_t aggregates = 0, aggregate_non_finite = 0;
  std::set<std::string> reported_by_aggregates, reported_by_repetitions;  // run names
  for (const auto& run : doc["benchmarks"]) {
    if (!run.is_object() || !run.contains("name") || !run["name"].is_string() ||
        run["name"].get<std::string>().empty()) {
      throw InputError(source + ": a benchmark entry has no name");
    }
    const auto name = run["name"].get<std::string>();
    const std::string where = source + ": '" + name + "'";
    // An aggregate (mean, median, stddev, ...) is recomputed by perfgate, never judged as a repetition: a row that
    // names an aggregate is one, whatever its run_type says or whether it says anything.
    if (string_field(run, "run_type", "iteration", where) != "iteration" || run.contains("aggregate_name")) {
      ++aggregates;
      reported_by_aggregates.insert(
          run.contains("run_name") && run["run_name"].is_string() ? run["run_name"].get<std::string>() : name);
      for (const auto& [field, value] : run.items())
        if (kNonMeasurements.count(field) == 0 && value.is_null()) ++aggregate_non_finite;
      continue;
    }
    reported_by_repetitions.insert(
        run.contains("run_name") && run["run_name"].is_string() ? run["run_name"].get<std::string>() : name);
    if (run.contains("error_occurred") && (!run["error_occurred"].is_boolean() || run["error_occurred"].get<bool>())) {
      throw InputError(source + ": benchmark '" + name + "' failed: " + string_field(run, "error_message", "?", where));
    }
    int repetition = 0;
    if (run.contains("repetition_index")) {
      const auto& index = run["repetition_index"];
      const bool in_range = index.is_number_unsigned()  ? index.get<uint64_t>() <= 1000000
                            : index.is_number_integer() ? index.get<int64_t>() >= 0 && index.get<int64_t>() <= 1000000
                                                        : false;
      if (!in_range) {
        throw InputError(where + " has repetition_index " + index.dump() +
                         " (expected a whole number in [0, 1000000])");
      }
      repetition = static_cast<int>(index.get<int64_t>());
    }
    if (!seen.emplace(name, repetition).second) {
      throw InputError(source + ": duplicate benchmark '" + name + "' (repetition " + std::to_string(repetition) + ")");
    }
    const std::string time_unit = string_field(run, "time_unit", "ns", where);
    if (!is_time_unit(time_unit))
      throw InputError(where + " has time_unit '" + time_unit + "' (expected ns, us, ms or s)");
    // A run of no iterations measured nothing: its times are zeros, not fast results. Google Benchmark records the
    // count on every iteration run, so a run without it is refused too (the rule holds for every row, not only for
    // rows that carry the field).
    if (!run.contains("iterations"))
      throw InputError(where + " has no \"iterations\" (every Google Benchmark run records them)");
    {
      const auto& iterations = run["iterations"];
      if (!iterations.is_number_integer())
        throw InputError(where + " has \"iterations\" " + iterations.dump() + " (expected a whole number)");
      // (nlohmann reads a non-negative integer as unsigned: compare in the type it was read as, never wrapping)
      const bool none =
          iterations.is_number_unsigned() ? iterations.get<uint64_t>() == 0 : iterations.get<int64_t>() < 1;
      if (none) throw InputError(where + " ran no iterations");
    }
    for (const auto& [field, value] : run.items()) {
      if (kNonMeasurements.count(field) != 0) continue;
      if (value.is_null()) {  // NaN or Infinity as written (or null): no figure, so not measured
        if (results.not_finite.emplace(name, field).second) {
          results.notes.push_back("'" + name + "' field '" + field +
                                  "' has no finite value (NaN, Infinity or null as written): not measured");
        }
        continue;
      }
      if (!value.is_number()) {
        throw InputError(source + ": '" + name + "' field '" + field + "' is not a number");
      }
      const double v = value.get<double>();
      if (!std::isfinite(v)) throw InputError(source + ": '" + name + "' field '" + field + "' is not finite");
      const bool is_time = field == "real_time" || field == "cpu_time";
      if (is_time && v < 0) throw InputError(source + ": '" + name + "' has a negative " + field);
      // Times are compared in one unit: one that overflows in nanoseconds (1e308 s) could only be compared as inf.
      if (is_time && !std::isfinite(convert_time(v, time_unit, "ns"))) {
        throw InputError(source + ": '" + name + "' has a " + field + " of " + value.dump() + " " + time_unit +
                         ", beyond any time");
      }
      results.measurements.push_back({name, field, v, is_time ? time_unit : "", repetition, exact_int64(value)});
    }
  }
  if (aggregates > 0 && seen.empty()) {
    throw InputError(source +
                     ": holds aggregates only (Google Benchmark's --benchmark_report_aggregates_only): perfgate "
                     "judges the repetitions themselves; run the suite without that option "
                     "(--benchmark_display_aggregates_only shortens the console output instead)");
  }
  for (const auto& run_name : reported_by_aggregates) {
    if (reported_by_repetitions.count(run_name) == 0) {
      results.notes.push_back("'" + run_name +
                              "' is reported by its aggregates alone (ReportAggregatesOnly): not read, as perfgate "
                              "judges the repetitions themselves");
    }
  }
  if (aggregate_non_finite > 0) {
    const auto skipped = std::to_string(aggregate_non_finite);
    results.notes.push_back(
        skipped + " aggregate figure" + (skipped == "1" ? "" : "s") +
        " with no finite value (NaN or Infinity as Google Benchmark writes, e.g. the coefficient of "
        "variation of a counter that is 0 in every repetition): not read, as perfgate computes its "
        "statistics from the repetitions");
  }
  return results;
}

}  // namespace perfgate
