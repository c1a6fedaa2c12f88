#include "formats/perfgate_results_json.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/time_units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace perfgate {

namespace {

void only_members(const nlohmann::json& object, const std::set<std::string>& known, const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    (void)value;
    if (known.count(key) == 0) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError(where + " has a member '" + key + "' the format does not have (it has: " + list + ")");
    }
  }
}

std::string text_member(const nlohmann::json& object, const std::string& key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end()) throw InputError(where + " has no \"" + key + "\"");
  if (!found->is_string()) throw InputError(where + " \"" + key + "\" is not a string");
  return found->get<std::string>();
}

}  // namespace

Results parse_perfgate_results_json(const std::string& text, const std::string& source) {
  return perfgate_results(parse_json_input(text, source), source);
}

Results perfgate_results(const nlohmann::json& doc, const std::string& source) {
  const std::string what = source + ": perfgate results";
  if (!doc.is_object()) throw InputError(what + " are not a JSON object");
  only_members(doc, {"perfgate_results", "context", "measurements"}, what);
  const auto version = doc.contains("perfgate_results") ? exact_int64(doc["perfgate_results"]) : std::nullopt;
  if (!version || *version != kPerfgateResultsVersion) {
    throw InputError(what + " of version " + (doc.contains("perfgate_results") ? doc["perfgate_results"].dump() : "?") +
                     " (this perfgate reads version " + std::to_string(kPerfgateResultsVersion) + ")");
  }
  Results results;
  results.source = source;
  if (doc.contains("context")) {
    if (!doc["context"].is_object()) throw InputError(what + " \"context\" is not an object");
    for (const auto& [key, value] : doc["context"].items()) {
      if (!value.is_string()) throw InputError(what + " context '" + key + "' is not a string");
      results.context[key] = value.get<std::string>();
    }
  }
  if (!doc.contains("measurements") || !doc["measurements"].is_array())
    throw InputError(what + " have no \"measurements\" array");
  std::set<std::pair<std::string, std::string>> seen;
  size_t index = 0;
  for (const auto& m : doc["measurements"]) {
    const std::string where = what + " measurements[" + std::to_string(index++) + "]";
    if (!m.is_object()) throw InputError(where + " is not an object");
    only_members(m, {"benchmark", "field", "unit", "repetitions"}, where);
    const auto benchmark = text_member(m, "benchmark", where);
    const auto field = text_member(m, "field", where);
    const auto unit = text_member(m, "unit", where);
    if (benchmark.empty() || field.empty()) throw InputError(where + " has an empty benchmark or field");
    if (!seen.emplace(benchmark, field).second)
      throw InputError(where + " repeats '" + benchmark + "' " + field + " (one member holds all its repetitions)");
    if (!m.contains("repetitions") || !m["repetitions"].is_array() || m["repetitions"].empty())
      throw InputError(where + " has no \"repetitions\" (an array of one value per repetition)");
    const auto& repetitions = m["repetitions"];
    if (repetitions.size() > static_cast<size_t>(kMaxRepetitions))
      throw InputError(where + " has more than " + std::to_string(kMaxRepetitions) + " repetitions");
    const bool is_time = is_time_unit(unit);
    for (size_t r = 0; r < repetitions.size(); ++r) {
      const auto& value = repetitions[r];
      const std::string at = "'" + benchmark + "' " + field + " repetition " + std::to_string(r);
      if (value.is_null()) {
        if (results.not_finite.emplace(benchmark, field).second) results.notes.push_back(at + " is null: not measured");
        continue;
      }
      if (!value.is_number()) throw InputError(where + ": " + at + " is not a number");
      const double v = value.get<double>();
      if (is_time && (v < 0 || !std::isfinite(convert_time(v, unit, "ns"))))
        throw InputError(where + ": " + at + " is " + value.dump() + " " + unit + ", not a time");
      results.measurements.push_back({benchmark, field, v, unit, static_cast<int>(r), exact_int64(value)});
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
