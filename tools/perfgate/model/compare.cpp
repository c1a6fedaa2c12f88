#include "model/compare.h"

#include "base/exit_codes.h"
#include "base/time_units.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace perfgate {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t mid = v.size() / 2;
  // Halves first: the mean of two values near the largest double must not overflow to infinity.
  return v.size() % 2 == 1 ? v[mid] : 0.5 * v[mid - 1] + 0.5 * v[mid];
}

std::optional<int64_t> integer_median(std::vector<int64_t> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const size_t mid = v.size() / 2;
  if (v.size() % 2 == 1) return v[mid];
  return v[mid - 1] == v[mid] ? std::optional<int64_t>(v[mid]) : std::nullopt;
}

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "PASS";
    case Verdict::fail:
      return "FAIL";
    case Verdict::missing:
      return "MISSING";
    case Verdict::unbaselined:
      return "NO-BASELINE";
    case Verdict::slower:
      return "WARNING";
    case Verdict::other_machine:
      return "SKIPPED";
  }
  return "?";
}

std::vector<Row> compare(const Results& results, const Baseline& baseline) {
  const auto found = results.context.find("machine_fingerprint");
  const std::string machine = found != results.context.end() ? found->second : std::string();
  const bool same_machine = !machine.empty() && machine == baseline.provenance.machine_fingerprint;
  std::vector<Row> rows;
  std::set<std::string> baselined;
  const MeasurementIndex index(results);  // one lookup per entry, not one scan of every measurement
  for (const auto& e : baseline.entries) {
    baselined.insert(e.benchmark);
    Row row;
    row.benchmark = e.benchmark;
    row.field = e.field;
    row.unit = e.unit;
    row.baseline = e.value;
    row.baseline_integer = e.integer;
    row.timing = is_time_unit(e.unit);
    row.direction = e.direction;
    row.tolerance = e.tolerance;
    row.limit = e.limit;
    row.advisory = e.advisory;
    row.band = acceptable_band(e);
    row.threshold = threshold_of(e);
    row.results_source = results.source;
    row.results_machine = machine;
    row.baseline_machine = baseline.provenance.machine_fingerprint;
    // Presence first, for every kind of entry: a metric that was not measured is MISSING whether or not its value
    // would be judged on this machine (an advisory timing that vanished means its benchmark did not run). A
    // repetition without a finite value (NaN as written) leaves the metric not measured, whatever the others hold.
    const auto values = index.values_in_unit(e.benchmark, e.field, e.unit);
    row.samples = static_cast<int>(values.size());
    if (values.empty() || results.not_finite.count({e.benchmark, e.field}) != 0) {
      row.verdict = Verdict::missing;
      row.findings = {Finding::not_measured};
      rows.push_back(row);
      continue;
    }
    row.value = median(values);  // shown even where it is not judged
    if ((e.advisory || row.timing) && !same_machine && !e.judged_here) {
      row.verdict = Verdict::other_machine;
      row.findings = {Finding::other_machine};
      rows.push_back(row);
      continue;
    }
    const auto integers = index.integers_of(e.benchmark, e.field, e.unit);
    row.value_integer = integers ? integer_median(*integers) : std::nullopt;
    const auto exact_median =
        e.tolerance.kind == Tolerance::Kind::exact && e.integer ? row.value_integer : std::nullopt;
    if (exact_median) {
      // Whole numbers judged as whole numbers: the median count must be the baseline's (counts beyond 2^53, which
      // doubles round together, stay apart). A median between two counts is no whole number: the band judges it.
      if (exact_median != e.integer) row.findings.push_back(Finding::beyond_tolerance);
    } else if (!row.band.contains(row.value)) {
      row.findings.push_back(Finding::beyond_tolerance);
    }
    if (e.limit && e.direction != Direction::either &&
        (e.direction == Direction::higher ? row.value < *e.limit : row.value > *e.limit)) {
      row.findings.push_back(Finding::beyond_limit);
    }
    row.verdict = row.findings.empty() ? Verdict::pass : e.advisory ? Verdict::slower : Verdict::fail;
    rows.push_back(row);
  }
  std::set<std::string> reported;
  for (const auto& m : results.measurements) {
    if (baselined.count(m.benchmark) != 0 || !reported.insert(m.benchmark).second) continue;
    Row row;
    row.benchmark = m.benchmark;
    row.verdict = Verdict::unbaselined;
    row.findings = {Finding::not_baselined};
    rows.push_back(row);
  }
  // What needs acting on first: failures, then metrics not measured, then advisory warnings; the rest keep the
  // baseline's order. Every renderer shows the rows in this order (the terminal, the report, verdicts.json, the
  // comment).
  const auto rank = [](Verdict v) {
    return v == Verdict::fail ? 0 : v == Verdict::missing ? 1 : v == Verdict::slower ? 2 : 3;
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Row& a, const Row& b) { return rank(a.verdict) < rank(b.verdict); });
  return rows;
}

int exit_code_of(const std::vector<Row>& rows) {
  for (const auto& r : rows) {
    if (r.verdict == Verdict::fail || r.verdict == Verdict::missing) return code_of(Exit::fail);
  }
  return code_of(Exit::pass);
}

}  // namespace perfgate
