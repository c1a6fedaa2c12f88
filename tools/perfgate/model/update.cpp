#include "model/update.h"
#include "base/number_format.h"
#include "base/one_line.h"

#include "base/error.h"
#include "base/time_units.h"
#include "model/compare.h"

#include <algorithm>
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

// Up to the next multiple of 1/scale: a band written to a baseline is never narrower than the one learned, and reads
// as few digits.
double rounded_up(double value, double scale) { return std::ceil(value * scale - 1e-9) / scale; }

}  // namespace

TrackSpec parse_track_spec(const std::string& spec) {
  std::vector<std::string> parts;
  std::stringstream in(spec);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (parts.size() < 3 || parts[0].empty())
    throw InputError("--track '" + spec + "': expected FIELD:DIRECTION:TOLERANCE");
  TrackSpec t;
  t.field = parts[0];
  if (parts[1] != "higher" && parts[1] != "lower" && parts[1] != "either") {
    throw InputError("--track '" + spec + "': direction must be higher, lower or either");
  }
  t.direction = parts[1] == "higher" ? Direction::higher : parts[1] == "lower" ? Direction::lower : Direction::either;
  if (parts[2] == "exact") {
    t.tolerance.kind = Tolerance::Kind::exact;
  } else if (parts[2] == "noise") {
    t.tolerance.kind = Tolerance::Kind::rel;
    t.tolerance.noise = NoiseOrigin{};  // learned from the update's runs
  } else if (parts[2].rfind("abs=", 0) == 0 || parts[2].rfind("rel=", 0) == 0) {
    t.tolerance.kind = parts[2][0] == 'a' ? Tolerance::Kind::abs : Tolerance::Kind::rel;
    t.tolerance.amount = parse_number(parts[2].substr(4), spec);
    if (t.tolerance.amount < 0) throw InputError("--track '" + spec + "': tolerance must be >= 0");
  } else {
    throw InputError("--track '" + spec + "': tolerance must be abs=X, rel=X, exact or noise");
  }
  for (size_t i = 3; i < parts.size(); ++i) {
    if (parts[i].rfind("limit=", 0) == 0) {
      t.limit = parse_number(parts[i].substr(6), spec);
      if (t.direction == Direction::either)
        throw InputError("--track '" + spec + "': a limit has no meaning for direction either");
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

EntryKey parse_entry_key(const std::string& text, const std::string& option) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    throw InputError(option + " '" + text + "': expected BENCHMARK:FIELD, e.g. 'BM_Sort/1024:comparisons'");
  }
  return {text.substr(0, colon), text.substr(colon + 1)};
}

namespace {

bool named(const std::vector<EntryKey>& keys, const Entry& e) {
  for (const auto& key : keys) {
    if (key.benchmark == e.benchmark && key.field == e.field) return true;
  }
  return false;
}
bool dropped(const UpdateRequest& request, const Entry& e) { return named(request.drop, e); }
// An entry of the baseline that this update leaves as it is: --only names others.
bool left_alone(const UpdateRequest& request, const Entry& e) {
  return !request.only.empty() && !named(request.only, e);
}

// The criterion of an entry as --track writes it, for the diff of a changed criterion.
std::string criterion_of(const Entry& e) {
  std::string text = to_string(e.direction) + ":" +
                     (e.tolerance.kind == Tolerance::Kind::exact ? std::string("exact")
                      : e.tolerance.noise                        ? std::string("noise")
                                          : to_string(e.tolerance.kind) + "=" + format_number(e.tolerance.amount));
  if (e.limit) text += ":limit=" + format_number(*e.limit);
  if (e.advisory) text += ":advisory";
  return text;
}

void take_criterion(Entry& e, const TrackSpec& spec) {
  e.direction = spec.direction;
  // A band from noise stays what it was learned to be until the update's runs learn it anew.
  if (!(spec.tolerance.noise && e.tolerance.noise)) e.tolerance = spec.tolerance;
  e.limit = spec.limit;
  e.advisory = spec.advisory;
  if (!spec.unit.empty()) e.unit = spec.unit;
}

}  // namespace

int captures_needed(const Results& first, const std::optional<Baseline>& current, const UpdateRequest& request,
                    int noise_runs) {
  int needed = 1;
  auto need = [&](bool noise, const std::string& unit) {
    needed = std::max(needed, noise ? noise_runs : is_time_unit(unit) ? 2 : 1);
  };
  if (current) {
    for (const auto& e : current->entries) {
      if (dropped(request, e) || left_alone(request, e)) continue;
      // A new criterion from --track decides how the entry is recorded.
      const TrackSpec* spec = nullptr;
      for (const auto& t : request.track)
        if (t.field == e.field) spec = &t;
      need(spec ? spec->tolerance.noise.has_value() : e.tolerance.noise.has_value(), e.unit);
    }
  }
  for (const auto& spec : request.track) {
    for (const auto& m : first.measurements) {
      if (m.field == spec.field) need(spec.tolerance.noise.has_value(), spec.unit.empty() ? m.unit : spec.unit);
    }
  }
  return needed;
}

UpdatePlan plan_update(const std::vector<Results>& captures, const std::optional<Baseline>& current,
                       const UpdateRequest& request, const Provenance& provenance) {
  if (captures.empty()) throw InputError("update: no results given");
  const Results& first = captures.front();
  UpdatePlan plan;
  plan.next.provenance = provenance;
  std::vector<Entry> entries;
  std::set<std::pair<std::string, std::string>> held;
  if (current) {
    for (const auto& e : current->entries) held.emplace(e.benchmark, e.field);
  }
  for (const auto& key : request.drop) {
    if (held.count({key.benchmark, key.field}) == 0) {
      throw InputError("--drop '" + key.benchmark + ":" + key.field + "': the baseline has no such entry");
    }
  }
  for (const auto& key : request.only) {
    if (held.count({key.benchmark, key.field}) == 0) {
      throw InputError("--only '" + key.benchmark + ":" + key.field +
                       "': the baseline has no such entry (new metrics come in with --track)");
    }
    for (const auto& gone : request.drop) {
      if (gone.benchmark == key.benchmark && gone.field == key.field) {
        throw InputError("--only '" + key.benchmark + ":" + key.field + "' is also dropped; give it to one of them");
      }
    }
  }
  std::set<std::string> tracked_fields;
  for (const auto& spec : request.track) {
    if (!tracked_fields.insert(spec.field).second) {
      throw InputError("--track " + spec.field + " is given twice; give one criterion per field");
    }
  }
  if (current) {
    for (const auto& e : current->entries) {
      if (dropped(request, e)) {
        plan.diff.push_back("- " + e.benchmark + " " + e.field + ": " + format_value(e.value, e.integer) +
                            " (dropped)");
        continue;
      }
      entries.push_back(e);
    }
  }
  std::set<std::pair<std::string, std::string>> known;
  for (const auto& e : entries) known.emplace(e.benchmark, e.field);
  std::vector<std::string> criterion_changes;
  for (const auto& spec : request.track) {
    std::set<std::string> benchmarks;
    for (const auto& m : first.measurements) {
      if (m.field == spec.field) benchmarks.insert(m.benchmark);
    }
    if (benchmarks.empty())
      throw InputError("--track " + spec.field + ": no benchmark in " + first.source + " reports it");
    for (auto& e : entries) {  // a field already tracked takes the new criterion
      if (e.field != spec.field) continue;
      if (!spec.unit.empty() && spec.unit != e.unit) {
        throw InputError("--track " + spec.field + ": " + e.benchmark + " is tracked in '" + e.unit +
                         "', and its value is not converted to '" + spec.unit +
                         "'; give the criterion without unit=, or --drop the entry and track it anew");
      }
      const auto before = criterion_of(e);
      take_criterion(e, spec);
      if (criterion_of(e) != before)
        criterion_changes.push_back("~ " + e.benchmark + " " + e.field + ": criterion " + before + " -> " +
                                    criterion_of(e));
    }
    for (const auto& name : benchmarks) {
      if (!known.emplace(name, spec.field).second) continue;
      Entry e;
      e.benchmark = name;
      e.field = spec.field;
      take_criterion(e, spec);
      if (e.unit.empty()) {
        for (const auto& m : first.measurements) {
          if (m.benchmark == name && m.field == spec.field) e.unit = m.unit;
        }
      }
      e.value = std::nan("");  // marks a new entry for the diff below
      entries.push_back(e);
    }
  }
  plan.diff.insert(plan.diff.end(), criterion_changes.begin(), criterion_changes.end());
  std::vector<MeasurementIndex> indices;
  indices.reserve(captures.size());
  for (const auto& capture : captures) indices.emplace_back(capture);
  const MeasurementIndex& first_index = indices.front();
  const MeasurementIndex* second_index = indices.size() > 1 ? &indices[1] : nullptr;
  // A value beyond its entry's own hard limit is never written, kept or new: the baseline would fail at once (a kept
  // value meets a limit when --track gives its entry a new criterion).
  auto require_within_limit = [](const Entry& e, double value, const std::optional<int64_t>& integer,
                                 const std::string& fix) {
    if (e.limit && e.direction != Direction::either &&
        (e.direction == Direction::higher ? value < *e.limit : value > *e.limit)) {
      throw InputError("update: " + e.benchmark + " / " + e.field + " = " + format_value(value, integer) +
                       " is beyond its own hard limit " + format_number(*e.limit) +
                       "; a baseline holding it would fail at once (" + fix + ")");
    }
  };
  const std::string fix_a_kept_value = "give the entry a limit it meets with --track, or re-record it";
  for (auto& e : entries) {
    if (!std::isnan(e.value) && left_alone(request, e)) {
      if (e.tolerance.noise && e.tolerance.noise->runs == 0) {
        throw InputError("update: --track " + e.field + ":...:noise gives " + e.benchmark + " / " + e.field +
                         " a band learned from this update's runs, and --only leaves it as it is; name it in --only "
                         "too, or track it in an update of its own");
      }
      require_within_limit(e, e.value, e.integer, fix_a_kept_value);
      plan.diff.push_back("= " + e.benchmark + " " + e.field + ": " + format_value(e.value, e.integer) +
                          " kept (not named by --only)");
      continue;
    }
    const auto values = first_index.values_in_unit(e.benchmark, e.field, e.unit);
    if (values.empty()) {
      throw InputError("update: baselined metric " + e.benchmark + " / " + e.field + " is absent from " + first.source +
                       "; if it is gone on purpose, add --drop " + shell_quote(e.benchmark + ":" + e.field));
    }
    double fresh = median(values);
    // A count written as a whole number is kept as one (written back digit for digit, judged exactly).
    const auto integers = first_index.integers_of(e.benchmark, e.field, e.unit);
    std::optional<int64_t> fresh_integer = integers ? integer_median(*integers) : std::nullopt;
    const bool is_new = std::isnan(e.value);
    std::optional<Tolerance> learned;  // the band from noise, when the entry's tolerance is learned
    std::string band_text;
    if (e.tolerance.noise) {
      const std::string what = "update: " + e.benchmark + " / " + e.field;
      if (static_cast<int>(indices.size()) < request.noise.minimum_runs) {
        throw InputError(what + " has a tolerance from noise, learned from at least " +
                         std::to_string(request.noise.minimum_runs) +
                         " runs; give --results once per run, or the "
                         "suite's command after -- and perfgate runs it");
      }
      std::vector<double> runs;
      for (size_t i = 0; i < indices.size(); ++i) {
        const auto v = indices[i].values_in_unit(e.benchmark, e.field, e.unit);
        if (v.empty()) throw InputError(what + " is absent from " + captures[i].source + ", one of the runs");
        runs.push_back(median(v));
      }
      const auto band = noise_band(runs, request.noise, e.direction, what);
      learned = Tolerance{Tolerance::Kind::rel, rounded_up(band.tolerance, 1e4),
                          NoiseOrigin{band.runs, rounded_up(band.sigma, 1e6), ""}};
      fresh = band.centre;
      fresh_integer = std::nullopt;
      band_text = "band " + format_fixed(100.0 * learned->amount, 2) + " % from the noise of " +
                  std::to_string(band.runs) + " runs: spread " + format_fixed(100.0 * band.sigma, 2) + " %" +
                  (band.floored ? ", below the floor of " + format_number(100.0 * request.noise.floor) + " %" : "");
      if (band.factor >= kWideNoiseBand) {
        plan.notes.push_back(
            e.benchmark + " " + e.field + ": its runs spread " + format_fixed(100.0 * band.sigma, 2) +
            " %, so its band is " + format_fixed(100.0 * learned->amount, 2) + " % and a change of " +
            format_number(kWideNoiseBand) +
            "x the bad way would pass; measure on a quieter machine, or with more repetitions per run");
      }
    } else if (is_time_unit(e.unit)) {
      if (captures.size() < 2) {
        throw InputError("update: " + e.benchmark + " / " + e.field +
                         " is a timing; give two captures (--results twice), or the suite's command after -- and "
                         "perfgate runs it twice");
      }
      const auto again = second_index->values_in_unit(e.benchmark, e.field, e.unit);
      Entry probe = e;  // the band around the first capture, either way: the second must fall inside it
      probe.value = fresh;
      probe.direction = Direction::either;
      if (again.empty() || !acceptable_band(probe).contains(median(again))) {
        throw InputError(
            "update: the two captures of " + e.benchmark + " / " + e.field + " disagree (" + format_number(fresh) +
            " vs " + (again.empty() ? std::string("absent") : format_number(median(again))) +
            ") beyond its tolerance; measure again on a quieter machine, or widen it with --track " + e.field + ":...");
      }
    }
    const bool better =
        !is_new &&
        (e.direction == Direction::higher ? fresh > e.value : e.direction == Direction::lower && fresh < e.value);
    if (!is_new && request.ratchet && !better) {
      require_within_limit(e, e.value, e.integer, fix_a_kept_value);
      // The value stays; a band from noise is still learned anew from these runs, as every update learns it.
      if (learned) e.tolerance = *learned;
      plan.diff.push_back("= " + e.benchmark + " " + e.field + ": " + format_value(e.value, e.integer) +
                          " kept (ratchet; measured " + format_value(fresh, fresh_integer) +
                          (band_text.empty() ? "" : "; " + band_text) + ")");
      continue;
    }
    require_within_limit(e, fresh, fresh_integer,
                         "fix the cause, or give the limit anew with --track " + e.field + ":...");
    if (is_new) {
      plan.diff.push_back("+ " + e.benchmark + " " + e.field + ": " + format_value(fresh, fresh_integer) +
                          (e.unit.empty() ? "" : " " + e.unit) + " (new" + (band_text.empty() ? "" : "; " + band_text) +
                          ")");
    } else {
      plan.diff.push_back((fresh == e.value && fresh_integer == e.integer ? "= " : "~ ") + e.benchmark + " " + e.field +
                          ": " + format_value(e.value, e.integer) + " -> " + format_value(fresh, fresh_integer) +
                          (e.unit.empty() ? "" : " " + e.unit) +
                          (fresh == e.value && band_text.empty()
                               ? ""
                               : " (" + (fresh == e.value ? "" : change_text(fresh, e.value)) +
                                     (fresh == e.value || band_text.empty() ? "" : "; ") + band_text + ")"));
    }
    e.value = fresh;
    e.integer = fresh_integer;
    if (learned) e.tolerance = *learned;
  }
  plan.next.entries = entries;
  // Never plan what compare would refuse (a band that overflows, a value JSON cannot hold): check the very text.
  plan.text = to_json_text(plan.next);
  parse_baseline(plan.text, "the updated baseline");
  return plan;
}

}  // namespace perfgate
