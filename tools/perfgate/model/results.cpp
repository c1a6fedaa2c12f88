#include "model/results.h"

#include "base/error.h"
#include "base/time_units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace perfgate {

namespace {

// One measurement's value in `unit` (see values_in_unit).
double in_unit(const Results& results, const Measurement& m, const std::string& unit) {
  if (is_time_unit(m.unit) && is_time_unit(unit)) return convert_time(m.value, m.unit, unit);
  if (is_time_unit(m.unit) || is_time_unit(unit)) {
    throw InputError(results.source + ": '" + m.benchmark + "' " + m.field + " is measured in '" + m.unit +
                     "' but judged in '" + unit + "'; a time and a non-time cannot be compared");
  }
  // A count without a unit (Google Benchmark's counters) is judged in whatever unit its baseline names; two named
  // units must be the same one, as perfgate converts none but times.
  if (!m.unit.empty() && !unit.empty() && m.unit != unit) {
    throw InputError(results.source + ": '" + m.benchmark + "' " + m.field + " is measured in '" + m.unit +
                     "' but judged in '" + unit + "'");
  }
  return m.value;
}

// The values of `chosen` measurements in repetition order.
template <typename Value>
std::vector<double> in_repetition_order(const Results& results, const std::vector<size_t>& chosen, Value value) {
  std::vector<std::pair<int, double>> found;
  for (const size_t i : chosen) found.emplace_back(results.measurements[i].repetition, value(results.measurements[i]));
  std::sort(found.begin(), found.end());
  std::vector<double> values;
  for (const auto& [rep, v] : found) values.push_back(v);
  return values;
}

}  // namespace

std::vector<double> values_in_unit(const Results& results, const std::string& benchmark, const std::string& field,
                                   const std::string& unit) {
  return MeasurementIndex(results).values_in_unit(benchmark, field, unit);
}

MeasurementIndex::MeasurementIndex(const Results& results) : results_(results) {
  for (size_t i = 0; i < results.measurements.size(); ++i) {
    positions_[{results.measurements[i].benchmark, results.measurements[i].field}].push_back(i);
  }
}

const std::vector<size_t>* MeasurementIndex::positions(const std::string& benchmark, const std::string& field) const {
  const auto found = positions_.find({benchmark, field});
  return found == positions_.end() ? nullptr : &found->second;
}

std::vector<double> MeasurementIndex::values_in_unit(const std::string& benchmark, const std::string& field,
                                                     const std::string& unit) const {
  const auto* chosen = positions(benchmark, field);
  if (chosen == nullptr) return {};
  return in_repetition_order(results_, *chosen, [&](const Measurement& m) { return in_unit(results_, m, unit); });
}

std::optional<std::vector<int64_t>> MeasurementIndex::integers_of(const std::string& benchmark,
                                                                  const std::string& field,
                                                                  const std::string& unit) const {
  const auto* chosen = positions(benchmark, field);
  if (chosen == nullptr) return std::nullopt;
  std::vector<std::pair<int, int64_t>> found;
  for (const size_t i : *chosen) {
    const auto& m = results_.measurements[i];
    if (!m.integer || m.unit != unit) return std::nullopt;
    found.emplace_back(m.repetition, *m.integer);
  }
  std::sort(found.begin(), found.end());
  std::vector<int64_t> values;
  for (const auto& [rep, v] : found) values.push_back(v);
  return values;
}

std::vector<double> MeasurementIndex::values_of(const std::string& benchmark, const std::string& field) const {
  const auto* chosen = positions(benchmark, field);
  if (chosen == nullptr) return {};
  return in_repetition_order(results_, *chosen, [](const Measurement& m) { return m.value; });
}

void append_repetitions(Results& pooled, const Results& more) {
  int next = 0;
  for (const auto& m : pooled.measurements) next = std::max(next, m.repetition + 1);
  for (auto m : more.measurements) {
    m.repetition += next;
    pooled.measurements.push_back(m);
  }
}

std::vector<double> values_of(const Results& results, const std::string& benchmark, const std::string& field) {
  return MeasurementIndex(results).values_of(benchmark, field);
}

}  // namespace perfgate
