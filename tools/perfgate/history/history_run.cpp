#include "history/history_run.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/one_line.h"
#include "base/time_units.h"
#include "base/utf8_text.h"
#include "model/compare.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace perfgate {
namespace {

constexpr int kRunFormatVersion = 1;

std::string text_of(const nlohmann::json& o, const std::string& key, const std::string& source) {
  if (!o.is_object() || !o.contains(key) || !o.at(key).is_string())
    throw InputError(source + ": not a history run: no text '" + key + "'");
  return o.at(key).get<std::string>();
}

// Every store keeps the same text: valid UTF-8 without NUL (PostgreSQL's text holds nothing else, and a name a store
// cannot hold is refused rather than kept altered).
void require_text(const std::string& text, const std::string& what, const std::string& source) {
  bool valid = text.find('\0') == std::string::npos;
  if (valid) for_each_code_point(text, [&valid](uint32_t, int invalid_byte) { valid = valid && invalid_byte < 0; });
  if (!valid)
    throw InputError(source + ": " + what + " '" + one_line(text) +
                     "' is not valid UTF-8 text without NUL, which a history keeps");
}

void require_texts(const HistoryRun& run, const std::string& source) {
  require_text(run.info.commit, "the commit", source);
  require_text(run.info.branch, "the branch", source);
  require_text(run.info.recorded_at, "the date", source);
  require_text(run.info.machine, "the machine", source);
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& m : run.metrics) {
    for (const auto* t : {&m.suite, &m.benchmark, &m.field, &m.unit}) require_text(*t, "a name", source);
    if (!seen.emplace(m.benchmark, m.field).second) {
      throw InputError(source + ": " + one_line(m.benchmark) + " / " + one_line(m.field) + " appears twice in one run");
    }
  }
}

}  // namespace

void check_recordable(const std::vector<Results>& results) {
  constexpr int64_t kExactInDouble = int64_t{1} << 53;
  for (const auto& r : results) {
    for (const auto& m : r.measurements) {
      if (m.integer && (*m.integer > kExactInDouble || *m.integer < -kExactInDouble)) {
        throw InputError("history: " + m.benchmark + " / " + m.field + " = " + std::to_string(*m.integer) +
                         " is beyond 2^53, which the history cannot keep exactly");
      }
    }
  }
}

HistoryRun history_run_of(const RunInfo& info, const std::vector<Results>& results) {
  check_recordable(results);
  struct Slot {
    std::vector<double> values;
    std::string unit, suite;
  };
  std::map<std::pair<std::string, std::string>, Slot> slots;
  for (const auto& r : results) {
    const std::string suite = std::filesystem::path(r.source).stem().string();
    for (const auto& m : r.measurements) {
      auto& slot = slots[{m.benchmark, m.field}];
      if (slot.values.empty()) slot.unit = m.unit, slot.suite = suite;
      // Times in the unit of the first occurrence, whatever each file wrote (a time and a non-time refused).
      if (is_time_unit(m.unit) != is_time_unit(slot.unit)) {
        throw InputError("history: " + m.benchmark + " / " + m.field + " is measured in '" + m.unit + "' and in '" +
                         slot.unit + "'");
      }
      slot.values.push_back(is_time_unit(m.unit) ? convert_time(m.value, m.unit, slot.unit) : m.value);
    }
  }
  HistoryRun run{info, {}};
  for (const auto& [key, slot] : slots) {
    run.metrics.push_back(
        {slot.suite, key.first, key.second, slot.unit, median(slot.values), static_cast<int64_t>(slot.values.size())});
  }
  require_texts(run, "history");
  return run;
}

nlohmann::json history_run_json(const HistoryRun& run) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : run.metrics) {
    metrics.push_back({{"suite", m.suite},
                       {"benchmark", m.benchmark},
                       {"field", m.field},
                       {"unit", m.unit},
                       {"value", m.value},
                       {"samples", m.samples}});
  }
  return {{"format", "perfgate-history-run"},
          {"version", kRunFormatVersion},
          {"commit", run.info.commit},
          {"branch", run.info.branch},
          {"recorded_at", run.info.recorded_at},
          {"machine", run.info.machine},
          {"metrics", metrics}};
}

std::string run_identity(const HistoryRun& run) {
  HistoryRun canonical = run;
  std::sort(canonical.metrics.begin(), canonical.metrics.end(), [](const HistoryMetric& a, const HistoryMetric& b) {
    return std::tie(a.suite, a.benchmark, a.field) < std::tie(b.suite, b.benchmark, b.field);
  });
  return history_run_json(canonical).dump();
}

HistoryRun parse_history_run(const nlohmann::json& doc, const std::string& source) {
  if (!doc.is_object() || doc.value("format", std::string()) != "perfgate-history-run") {
    throw InputError(source + ": not a history run (no \"format\": \"perfgate-history-run\")");
  }
  if (!doc.contains("version") || exact_int64(doc.at("version")) != kRunFormatVersion) {
    throw InputError(source + ": history run format version is not " + std::to_string(kRunFormatVersion));
  }
  HistoryRun run;
  run.info = {text_of(doc, "commit", source), text_of(doc, "branch", source), text_of(doc, "recorded_at", source),
              text_of(doc, "machine", source)};
  if (!doc.contains("metrics") || !doc.at("metrics").is_array())
    throw InputError(source + ": not a history run: no metrics array");
  for (const auto& m : doc.at("metrics")) {
    HistoryMetric metric{text_of(m, "suite", source),
                         text_of(m, "benchmark", source),
                         text_of(m, "field", source),
                         text_of(m, "unit", source),
                         0.0,
                         0};
    if (!m.contains("value") || !m.at("value").is_number() || !std::isfinite(m.at("value").get<double>())) {
      throw InputError(source + ": not a history run: a value that is not a finite number");
    }
    metric.value = m.at("value").get<double>();
    const auto samples = m.contains("samples") ? exact_int64(m.at("samples")) : std::nullopt;
    if (!samples || *samples < 0) throw InputError(source + ": not a history run: samples is not a count");
    metric.samples = *samples;
    run.metrics.push_back(metric);
  }
  require_texts(run, source);
  return run;
}

std::string recorded_machine(const std::map<std::string, std::string>& context) {
  const auto machine = context.find("machine");
  if (machine != context.end()) return machine->second;
  const auto cpu = context.find("cpu_model");
  return cpu != context.end() ? cpu->second : std::string();
}

}  // namespace perfgate
