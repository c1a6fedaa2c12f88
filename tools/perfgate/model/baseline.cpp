#include "model/baseline.h"
#include "base/read_file.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/number_format.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace perfgate {
namespace {

using nlohmann::json;

void require_known_keys(const json& object, const std::set<std::string>& allowed, const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    (void)value;
    if (allowed.count(key) == 0) throw InputError(where + ": unknown field '" + key + "'");
  }
}

std::string required_string(const json& object, const std::string& key, const std::string& where) {
  if (!object.contains(key) || !object[key].is_string() || object[key].get<std::string>().empty()) {
    throw InputError(where + ": '" + key + "' must be a non-empty string");
  }
  return object[key].get<std::string>();
}

double finite_number(const json& value, const std::string& what) {
  if (!value.is_number()) throw InputError(what + " must be a number");
  const double v = value.get<double>();
  if (!std::isfinite(v)) throw InputError(what + " must be finite");
  return v;
}

// {"runs": N >= 2, "sigma": S >= 0}: the runs a band was learned from.
NoiseOrigin parse_noise_origin(const json& n, const std::string& where) {
  if (!n.is_object()) throw InputError(where + ": 'tolerance.noise' must be an object with runs and sigma");
  require_known_keys(n, {"runs", "sigma"}, where + ": 'tolerance.noise'");
  if (!n.contains("runs") || !n["runs"].is_number_integer() || n["runs"].get<int64_t>() < 2 ||
      n["runs"].get<int64_t>() > 1000000)
    throw InputError(where + ": 'tolerance.noise.runs' must be a whole number of runs >= 2");
  if (!n.contains("sigma")) throw InputError(where + ": 'tolerance.noise.sigma' missing");
  NoiseOrigin origin;
  origin.runs = static_cast<int>(n["runs"].get<int64_t>());
  origin.sigma = finite_number(n["sigma"], where + ": 'tolerance.noise.sigma'");
  if (origin.sigma < 0) throw InputError(where + ": 'tolerance.noise.sigma' must be >= 0");
  return origin;
}

Tolerance parse_tolerance(const json& t, const std::string& where) {
  const bool from_noise = t.is_object() && t.contains("noise");
  if (from_noise && !(t.size() == 2 && t.contains("rel")))
    throw InputError(where + ": 'tolerance.noise' goes with rel only");
  if (!t.is_object() || t.size() != (from_noise ? 2u : 1u))
    throw InputError(where + ": 'tolerance' must be an object with exactly one of abs, rel, exact");
  Tolerance tol;
  if (from_noise) tol.noise = parse_noise_origin(t["noise"], where);
  if (t.contains("exact")) {
    if (!t["exact"].is_boolean() || !t["exact"].get<bool>())
      throw InputError(where + ": 'tolerance.exact' must be true");
    tol.kind = Tolerance::Kind::exact;
    return tol;
  }
  if (t.contains("abs")) {
    tol.kind = Tolerance::Kind::abs;
    tol.amount = finite_number(t["abs"], where + ": 'tolerance.abs'");
  } else if (t.contains("rel")) {
    tol.kind = Tolerance::Kind::rel;
    tol.amount = finite_number(t["rel"], where + ": 'tolerance.rel'");
  } else {
    throw InputError(where + ": 'tolerance' must hold abs, rel or exact");
  }
  if (tol.amount < 0) throw InputError(where + ": tolerance must be >= 0");
  return tol;
}

}  // namespace

Baseline parse_baseline(const std::string& text, const std::string& source) {
  const json doc = parse_json_input(text, source);
  if (!doc.is_object()) throw InputError(source + ": a baseline must be a JSON object");
  require_known_keys(doc, {"schema_version", "provenance", "entries"}, source);
  if (!doc.contains("schema_version") || !doc["schema_version"].is_number_integer() ||
      doc["schema_version"].get<int64_t>() != kSchemaVersion) {
    throw InputError(source + ": schema_version must be " + std::to_string(kSchemaVersion));
  }
  Baseline b;
  if (!doc.contains("provenance") || !doc["provenance"].is_object())
    throw InputError(source + ": 'provenance' object missing");
  const auto& p = doc["provenance"];
  require_known_keys(
      p, {"git_sha", "date", "machine", "build_type", "torch_version", "threads", "reason", "machine_fingerprint"},
      source + ": provenance");
  for (const auto& [key, value] : p.items()) {
    if (!value.is_string()) throw InputError(source + ": provenance." + key + " must be a string");
  }
  b.provenance = {
      p.value("git_sha", ""),       p.value("date", ""),    p.value("machine", ""), p.value("build_type", ""),
      p.value("torch_version", ""), p.value("threads", ""), p.value("reason", ""),  p.value("machine_fingerprint", "")};
  if (!doc.contains("entries") || !doc["entries"].is_array()) throw InputError(source + ": 'entries' array missing");
  std::set<std::pair<std::string, std::string>> seen;
  size_t index = 0;
  for (const auto& e : doc["entries"]) {
    const std::string where = source + ": entries[" + std::to_string(index++) + "]";
    if (!e.is_object()) throw InputError(where + ": must be an object");
    require_known_keys(e, {"benchmark", "field", "value", "unit", "direction", "tolerance", "limit", "advisory"},
                       where);
    Entry entry;
    entry.benchmark = required_string(e, "benchmark", where);
    entry.field = required_string(e, "field", where);
    if (!e.contains("value")) throw InputError(where + ": 'value' missing");
    entry.value = finite_number(e["value"], where + ": 'value'");
    entry.integer = exact_int64(e["value"]);
    if (!e.contains("unit") || !e["unit"].is_string()) throw InputError(where + ": 'unit' must be a string");
    entry.unit = e["unit"].get<std::string>();
    const auto direction = required_string(e, "direction", where);
    if (direction != "higher" && direction != "lower" && direction != "either") {
      throw InputError(where + ": 'direction' must be higher, lower or either");
    }
    entry.direction = direction == "higher"  ? Direction::higher
                      : direction == "lower" ? Direction::lower
                                             : Direction::either;
    if (!e.contains("tolerance")) throw InputError(where + ": 'tolerance' missing");
    entry.tolerance = parse_tolerance(e["tolerance"], where);
    if (e.contains("limit")) entry.limit = finite_number(e["limit"], where + ": 'limit'");
    if (entry.limit && entry.direction == Direction::either) {
      throw InputError(where + ": a 'limit' bounds one side; it has no meaning for direction either");
    }
    if (e.contains("advisory")) {
      if (!e["advisory"].is_boolean()) throw InputError(where + ": 'advisory' must be true or false");
      entry.advisory = e["advisory"].get<bool>();
    }
    const Band band = acceptable_band(entry);
    if ((entry.direction != Direction::lower && !std::isfinite(band.low)) ||
        (entry.direction != Direction::higher && !std::isfinite(band.high))) {
      throw InputError(where + ": value " + format_number(entry.value) + " with tolerance " +
                       describe(entry.tolerance) + " reaches beyond the largest number (the band overflows)");
    }
    if (!seen.emplace(entry.benchmark, entry.field).second) {
      throw InputError(where + ": duplicate entry for " + entry.benchmark + " / " + entry.field);
    }
    b.entries.push_back(entry);
  }
  return b;
}

Baseline read_baseline(const std::string& path) { return parse_baseline(read_whole_file(path, "baseline"), path); }

std::string to_json_text(const Baseline& b) {
  for (const auto& e : b.entries) {
    if (!std::isfinite(e.value) || (e.limit && !std::isfinite(*e.limit))) {
      throw InputError("baseline entry " + e.benchmark + " / " + e.field + " would be written with a non-finite value");
    }
  }
  json doc = json::object();
  doc["schema_version"] = b.schema_version;
  doc["provenance"] = {{"git_sha", b.provenance.git_sha},
                       {"date", b.provenance.date},
                       {"machine", b.provenance.machine},
                       {"build_type", b.provenance.build_type},
                       {"torch_version", b.provenance.torch_version},
                       {"threads", b.provenance.threads},
                       {"reason", b.provenance.reason}};
  if (!b.provenance.machine_fingerprint.empty())
    doc["provenance"]["machine_fingerprint"] = b.provenance.machine_fingerprint;
  json entries = json::array();
  for (const auto& e : b.entries) {
    json t;
    t[to_string(e.tolerance.kind)] = e.tolerance.kind == Tolerance::Kind::exact ? json(true) : json(e.tolerance.amount);
    if (e.tolerance.noise) t["noise"] = {{"runs", e.tolerance.noise->runs}, {"sigma", e.tolerance.noise->sigma}};
    json entry = {{"benchmark", e.benchmark},
                  {"field", e.field},
                  {"value", e.integer ? json(*e.integer) : json(e.value)},
                  {"unit", e.unit},
                  {"direction", to_string(e.direction)},
                  {"tolerance", t}};
    if (e.limit) entry["limit"] = *e.limit;
    if (e.advisory) entry["advisory"] = true;
    entries.push_back(entry);
  }
  doc["entries"] = entries;
  try {
    return doc.dump(2) + "\n";  // strict: a baseline keeps names exactly, or is not written
  } catch (const json::type_error&) {
    throw InputError("a name or text for the baseline is not valid UTF-8; nothing was written");
  }
}

std::string to_string(Direction d) {
  switch (d) {
    case Direction::higher:
      return "higher";
    case Direction::lower:
      return "lower";
    case Direction::either:
      return "either";
  }
  return "?";
}

std::string to_string(Tolerance::Kind kind) {
  switch (kind) {
    case Tolerance::Kind::abs:
      return "abs";
    case Tolerance::Kind::rel:
      return "rel";
    case Tolerance::Kind::exact:
      return "exact";
  }
  return "?";
}

std::string describe(const Tolerance& t) {
  std::ostringstream out;
  switch (t.kind) {
    case Tolerance::Kind::abs:
      out << "±" << t.amount << " abs";
      break;
    case Tolerance::Kind::rel:
      // A band learned from noise reads in three digits: its last digits are noise themselves.
      if (t.noise)
        out << format_number(t.amount * 100.0, 3) << "% rel";
      else
        out << t.amount * 100.0 << "% rel";
      if (t.noise && t.noise->history.empty()) out << " (noise of " << t.noise->runs << " runs)";
      if (t.noise && !t.noise->history.empty())
        out << " (history: last " << t.noise->runs << " runs of " << t.noise->history << ")";
      break;
    case Tolerance::Kind::exact:
      out << "exact";
      break;
  }
  return out.str();
}

Band acceptable_band(const Entry& e) {
  double slack = 0.0;
  switch (e.tolerance.kind) {
    case Tolerance::Kind::abs:
      slack = e.tolerance.amount;
      break;
    case Tolerance::Kind::rel:
      slack = e.tolerance.amount * std::abs(e.value);
      break;
    case Tolerance::Kind::exact:
      slack = 0.0;
      break;
  }
  constexpr double infinity = std::numeric_limits<double>::infinity();
  const bool exact = e.tolerance.kind == Tolerance::Kind::exact;
  const double low = e.value - slack, high = e.value + slack;
  if (exact) return {e.value, e.value};
  switch (e.direction) {
    case Direction::higher:
      return {low, infinity};
    case Direction::lower:
      return {-infinity, high};
    case Direction::either:
      return {low, high};
  }
  return {low, high};
}

double threshold_of(const Entry& e) {
  const Band band = acceptable_band(e);
  return e.direction == Direction::higher ? band.low : band.high;
}

}  // namespace perfgate
