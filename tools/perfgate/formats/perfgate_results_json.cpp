#include "formats/perfgate_results_json.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/json_reader.h"
#include "base/time_units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace perfgate {

Results parse_perfgate_results_json(const std::string& text, const std::string& source) {
  return perfgate_results(parse_json_input(text, source), source);
}

Results perfgate_results(const nlohmann::json& doc, const std::string& source) {
  const JsonReader r(source, "perfgate results");
  r.only_members(doc, {"perfgate_results", "context", "measurements"}, "the document");
  const auto version = exact_int64(r.member(doc, "perfgate_results", "the document"));
  if (!version || *version != kPerfgateResultsVersion) {
    r.fail("perfgate_results is " + doc["perfgate_results"].dump() + ": this perfgate reads version " +
           std::to_string(kPerfgateResultsVersion));
  }
  Results results;
  results.source = source;
  if (doc.contains("context")) {
    if (!doc["context"].is_object()) r.fail("context is not an object");
    for (const auto& [key, value] : doc["context"].items()) {
      if (!value.is_string()) r.fail("context." + key + " is not a string");
      results.context[key] = value.get<std::string>();
    }
  }
  std::set<std::pair<std::string, std::string>> seen;
  size_t index = 0;
  for (const auto& m : r.array(doc, "measurements", "the document")) {
    const std::string where = "measurements[" + std::to_string(index++) + "]";
    r.only_members(m, {"benchmark", "field", "unit", "repetitions"}, where);
    const auto benchmark = r.text(m, "benchmark", where);
    const auto field = r.text(m, "field", where);
    const auto unit = r.text(m, "unit", where);
    if (benchmark.empty() || field.empty()) r.fail(where + " has an empty benchmark or field");
    if (!seen.emplace(benchmark, field).second)
      r.fail(where + " repeats '" + benchmark + "' " + field + " (one member holds all its repetitions)");
    if (!m.contains("repetitions") || !m["repetitions"].is_array() || m["repetitions"].empty())
      r.fail(where + " has no \"repetitions\" (an array of one value per repetition)");
    const auto& repetitions = m["repetitions"];
    if (repetitions.size() > static_cast<size_t>(kMaxRepetitions))
      r.fail(where + " has more than " + std::to_string(kMaxRepetitions) + " repetitions");
    const bool is_time = is_time_unit(unit);
    for (size_t i = 0; i < repetitions.size(); ++i) {
      const auto& value = repetitions[i];
      const std::string at = "'" + benchmark + "' " + field + " repetition " + std::to_string(i);
      if (value.is_null()) {
        if (results.not_finite.emplace(benchmark, field).second) results.notes.push_back(at + " is null: not measured");
        continue;
      }
      if (!value.is_number()) r.fail(where + ": " + at + " is not a number");
      const double v = value.get<double>();
      if (is_time && (v < 0 || !std::isfinite(convert_time(v, unit, "ns"))))
        r.fail(where + ": " + at + " is " + value.dump() + " " + unit + ", not a time");
      results.measurements.push_back({benchmark, field, v, unit, static_cast<int>(i), exact_int64(value)});
    }
  }
  return results;
}

std::string perfgate_results_json_text(const Results& results) {
  nlohmann::json doc;
  doc["perfgate_results"] = kPerfgateResultsVersion;
  doc["context"] = nlohmann::json::object();
  for (const auto& [key, value] : results.context) doc["context"][key] = value;
  // Members in the order their (benchmark, field) first appears; repetitions in index order.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<const Measurement*>> members;
  for (const auto& m : results.measurements) {
    auto& list = members[{m.benchmark, m.field}];
    if (list.empty()) order.emplace_back(m.benchmark, m.field);
    list.push_back(&m);
  }
  doc["measurements"] = nlohmann::json::array();
  for (const auto& key : order) {
    auto list = members[key];
    std::stable_sort(list.begin(), list.end(),
                     [](const Measurement* a, const Measurement* b) { return a->repetition < b->repetition; });
    nlohmann::json values = nlohmann::json::array();
    for (const auto* m : list) values.push_back(m->integer ? nlohmann::json(*m->integer) : nlohmann::json(m->value));
    if (results.not_finite.count(key) != 0) values.push_back(nullptr);
    doc["measurements"].push_back(
        {{"benchmark", key.first}, {"field", key.second}, {"unit", list.front()->unit}, {"repetitions", values}});
  }
  for (const auto& key : results.not_finite) {
    if (members.count(key) == 0)  // measured in no repetition at all
      doc["measurements"].push_back(
          {{"benchmark", key.first}, {"field", key.second}, {"unit", ""}, {"repetitions", {nullptr}}});
  }
  return json_output_text(doc);
}

}  // namespace perfgate
