#include "update.h"
#include "number_format.h"

#include "compare.h"
#include "error.h"
#include "time_units.h"

#include <cmath>
#include <optional>
#include <set>
#include <sstream>

namespace perfgate {
namespace {

double parse_number(const std::string& text, const std::string& spec) {
  // Decimal only: std::stod would also read hexadecimal ("0x10" as 16) and "inf".
  const bool decimal = !text.empty() && text.find_first_not_of("0123456789+-.eE") == std::string::npos;
  try {
    size_t used = 0;
    const double v = decimal ? std::stod(text, &used) : std::nan("");
    if (used != text.size() || !std::isfinite(v)) throw std::invalid_argument("trailing");
    return v;
  } catch (const std::out_of_range&) {
    throw InputError("--track '" + spec + "': '" + text + "' is out of the range of numbers");
  } catch (const std::exception&) {
    throw InputError("--track '" + spec + "': '" + text + "' is not a decimal number");
  }
}

}  // namespace

TrackSpec parse_track_spec(const std::string& spec) {
  std::vector<std::string> parts;
  std::stringstream in(spec);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (parts.size() < 3 || parts[0].empty()) throw InputError("--track '" + spec + "': expected FIELD:DIRECTION:TOLERANCE");
  TrackSpec t;
  t.field = parts[0];
  if (parts[1] != "higher" && parts[1] != "lower" && parts[1] != "either") {
    throw InputError("--track '" + spec + "': direction must be higher, lower or either");
  }
  t.direction = parts[1] == "higher" ? Direction::higher : parts[1] == "lower" ? Direction::lower : Direction::either;
  if (parts[2] == "exact") {
    t.tolerance.kind = Tolerance::Kind::exact;
  } else if (parts[2].rfind("abs=", 0) == 0 || parts[2].rfind("rel=", 0) == 0) {
    t.tolerance.kind = parts[2][0] == 'a' ? Tolerance::Kind::abs : Tolerance::Kind::rel;
    t.tolerance.amount = parse_number(parts[2].substr(4), spec);
    if (t.tolerance.amount < 0) throw InputError("--track '" + spec + "': tolerance must be >= 0");
  } else {
    throw InputError("--track '" + spec + "': tolerance must be abs=X, rel=X or exact");
  }
  for (size_t i = 3; i < parts.size(); ++i) {
    if (parts[i].rfind("limit=", 0) == 0) {
      t.limit = parse_number(parts[i].substr(6), spec);
      if (t.direction == Direction::either) throw InputError("--track '" + spec + "': a limit has no meaning for direction either");
    } else if (parts[i] == "advisory") {
      t.advisory = true;
    } else if (parts[i].rfind("unit=", 0) == 0) {
      t.unit = parts[i].substr(5);
    } else {
      throw InputError("--track '" + spec + "': unknown option '" + parts[i] + "'");
    }
  }
  return t;
}

UpdatePlan plan_update(const std::vector<Results>& captures, const std::optional<Baseline>& current,
                       const std::vector<TrackSpec>& track, bool ratchet, const Provenance& provenance) {
  if (captures.empty()) throw InputError("update: no results given");
  const Results& first = captures.front();
  UpdatePlan plan;
  plan.next.provenance = provenance;
  std::vector<Entry> entries = current ? current->entries : std::vector<Entry>{};
  std::set<std::pair<std::string, std::string>> known;
  for (const auto& e : entries) known.emplace(e.benchmark, e.field);
  for (const auto& spec : track) {
    std::set<std::string> benchmarks;
    for (const auto& m : first.measurements) {
      if (m.field == spec.field) benchmarks.insert(m.benchmark);
    }
    if (benchmarks.empty()) throw InputError("--track " + spec.field + ": no benchmark in " + first.source + " reports it");
    for (const auto& name : benchmarks) {
      if (!known.emplace(name, spec.field).second) continue;
      Entry e;
      e.benchmark = name;
      e.field = spec.field;
      e.direction = spec.direction;
      e.tolerance = spec.tolerance;
      e.limit = spec.limit;
      e.advisory = spec.advisory;
      e.unit = spec.unit;
      if (e.unit.empty()) {
        for (const auto& m : first.measurements) {
          if (m.benchmark == name && m.field == spec.field) e.unit = m.unit;
        }
      }
      e.value = std::nan("");  // marks a new entry for the diff below
      entries.push_back(e);
    }
  }
  const MeasurementIndex first_index(first);
  const std::optional<MeasurementIndex> second_index = captures.size() > 1 ? std::optional<MeasurementIndex>(std::in_place, captures[1])
                                                                           : std::nullopt;
  for (auto& e : entries) {
    const auto values = first_index.values_in_unit(e.benchmark, e.field, e.unit);
    if (values.empty()) {
      throw InputError("update: baselined metric " + e.benchmark + " / " + e.field + " is absent from " + first.source +
                       " (remove it from the baseline by hand, with review, if it is gone on purpose)");
    }
    const double fresh = median(values);
    // A count written as a whole number is kept as one (written back digit for digit, judged exactly).
    const auto integers = first_index.integers_of(e.benchmark, e.field, e.unit);
    const std::optional<int64_t> fresh_integer = integers ? integer_median(*integers) : std::nullopt;
    const bool is_new = std::isnan(e.value);
    if (is_time_unit(e.unit)) {
      if (captures.size() < 2) {
        throw InputError("update: " + e.benchmark + " / " + e.field + " is a timing; give two captures (--results twice)");
      }
      const auto again = second_index->values_in_unit(e.benchmark, e.field, e.unit);
      Entry probe = e;  // the band around the first capture, either way: the second must fall inside it
      probe.value = fresh;
      probe.direction = Direction::either;
      if (again.empty() || !acceptable_band(probe).contains(median(again))) {
        throw InputError("update: the two captures of " + e.benchmark + " / " + e.field + " disagree (" + format_number(fresh) + " vs " +
                         (again.empty() ? std::string("absent") : format_number(median(again))) + ") beyond its tolerance");
      }
    }
    if (is_new) {
      plan.diff.push_back("+ " + e.benchmark + " " + e.field + ": " + format_number(fresh) + " (new)");
      e.value = fresh;
      e.integer = fresh_integer;
      continue;
    }
    const bool better = e.direction == Direction::higher ? fresh > e.value : e.direction == Direction::lower && fresh < e.value;
    if (ratchet && !better) {
      plan.diff.push_back("= " + e.benchmark + " " + e.field + ": " + format_number(e.value) + " kept (ratchet; measured " + format_number(fresh) + ")");
      continue;
    }
    plan.diff.push_back((fresh == e.value && fresh_integer == e.integer ? "= " : "~ ") + e.benchmark + " " + e.field + ": " +
                        format_number(e.value) + " -> " + format_number(fresh));
    e.value = fresh;
    e.integer = fresh_integer;
  }
  plan.next.entries = entries;
  // Never plan what compare would refuse (a band that overflows, a value JSON cannot hold): check the very text.
  plan.text = to_json_text(plan.next);
  parse_baseline(plan.text, "the updated baseline");
  return plan;
}

}  // namespace perfgate
