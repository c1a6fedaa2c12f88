#include "model/bisect_search.h"

#include "base/error.h"

#include <cmath>
#include <set>

namespace perfgate {
namespace {

double change(double value, double base) { return base != 0.0 ? value / base - 1.0 : (value == 0.0 ? 0.0 : INFINITY); }

}  // namespace

BisectOutcome bisect_exact(size_t count, const std::function<BisectFigures(size_t)>& measure, double tolerance) {
  if (count < 2) throw InputError("bisect: GOOD and BAD are the same commit");
  BisectOutcome out;
  std::map<size_t, BisectFigures> measured;
  const auto probe = [&](size_t i) -> const BisectFigures& {
    auto found = measured.find(i);
    if (found == measured.end()) found = measured.emplace(i, measure(i)).first;
    return found->second;
  };
  const auto good = probe(0);
  const auto bad = probe(count - 1);
  if (!good || !bad)
    throw InputError(std::string("bisect: ") + (!good ? "GOOD" : "BAD") + " could not be measured (does it build?)");
  std::map<std::string, double> direction;  // +1 or -1 for each benchmark BAD moved beyond the tolerance
  for (const auto& [name, base] : *good) {
    const auto at_bad = bad->find(name);
    if (at_bad == bad->end()) continue;
    const double c = change(at_bad->second, base);
    if (std::abs(c) > tolerance) direction[name] = c > 0 ? 1.0 : -1.0, out.moved.push_back(name);
  }
  bool shared = false;
  for (const auto& [name, value] : *good) shared = shared || bad->count(name) > 0;
  if (!shared) throw InputError("bisect: GOOD and BAD measured no benchmark in common");
  const auto is_bad = [&](const std::map<std::string, double>& figures) {
    for (const auto& [name, sign] : direction) {
      const auto here = figures.find(name);
      if (here != figures.end() && sign * change(here->second, good->at(name)) > tolerance) return true;
    }
    return false;
  };
  std::set<size_t> recorded;  // each commit listed once, however often the search passes over it
  const auto record = [&](size_t i) {
    if (!recorded.insert(i).second) return;
    const auto& f = measured.at(i);
    out.probes.push_back({i, f, f && is_bad(*f), false});
  };
  record(0);
  record(count - 1);
  if (direction.empty()) return out;
  // Invariant: lo is measured and good, hi is measured and bad. A commit that cannot be measured is stepped over
  // toward hi; when every commit between them is skipped, the culprit is among them.
  size_t lo = 0, hi = count - 1;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    while (mid < hi && !probe(mid)) record(mid), ++mid;
    if (mid == hi) {
      out.kind = BisectOutcome::Kind::skipped;
      out.last_good = lo;
      out.first_bad = hi;
      return out;
    }
    record(mid);
    if (is_bad(*measured.at(mid)))
      hi = mid;
    else
      lo = mid;
  }
  out.last_good = lo;
  out.first_bad = hi;
  // Its own change: from its parent (lo, measured and good) to it, for the benchmarks that moved.
  bool alone = false;
  for (const auto& [name, sign] : direction) {
    const auto& before = *measured.at(lo);
    const auto& after = *measured.at(hi);
    if (before.count(name) && after.count(name) && sign * change(after.at(name), before.at(name)) > tolerance)
      alone = true;
  }
  out.kind = alone ? BisectOutcome::Kind::culprit : BisectOutcome::Kind::creep;
  return out;
}

BisectOutcome bisect_timing(size_t count, const std::function<TimingProbe(size_t)>& compare_with_good,
                            const std::function<bool(size_t, size_t)>& confirm) {
  if (count < 2) throw InputError("bisect: GOOD and BAD are the same commit");
  BisectOutcome out;
  std::map<size_t, TimingProbe> measured;
  const auto probe = [&](size_t i) -> const TimingProbe& {
    auto found = measured.find(i);
    if (found == measured.end()) {
      found = measured.emplace(i, compare_with_good(i)).first;
      const auto& p = found->second;
      out.probes.push_back({i, p.figures, p.figures && p.verdict == TimingProbe::Verdict::bad,
                            p.figures && p.verdict == TimingProbe::Verdict::undecided});
    }
    return found->second;
  };
  out.probes.push_back({0, std::map<std::string, double>{}, false, false});  // GOOD: the reference of every comparison
  const auto& bad = probe(count - 1);
  if (!bad.figures) throw InputError("bisect: BAD could not be measured (does it build?)");
  if (bad.verdict == TimingProbe::Verdict::good) return out;
  out.last_good = 0;
  out.first_bad = count - 1;
  if (bad.verdict == TimingProbe::Verdict::undecided) {
    out.kind = BisectOutcome::Kind::undecided;
    return out;
  }
  out.moved = bad.slower;
  size_t lo = 0, hi = count - 1;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    while (mid < hi && (!probe(mid).figures || probe(mid).verdict == TimingProbe::Verdict::undecided)) ++mid;
    if (mid == hi) {
      out.kind = BisectOutcome::Kind::skipped;
      out.last_good = lo;
      out.first_bad = hi;
      return out;
    }
    if (probe(mid).verdict == TimingProbe::Verdict::bad)
      hi = mid;
    else
      lo = mid;
  }
  out.last_good = lo;
  out.first_bad = hi;
  out.kind = confirm(lo, hi) ? BisectOutcome::Kind::culprit : BisectOutcome::Kind::unconfirmed;
  return out;
}

std::string to_string(BisectOutcome::Kind kind) {
  switch (kind) {
    case BisectOutcome::Kind::no_change:
      return "no_change";
    case BisectOutcome::Kind::culprit:
      return "culprit";
    case BisectOutcome::Kind::creep:
      return "creep";
    case BisectOutcome::Kind::skipped:
      return "skipped";
    case BisectOutcome::Kind::unconfirmed:
      return "unconfirmed";
    case BisectOutcome::Kind::undecided:
      return "undecided";
  }
  return "unknown";
}

}  // namespace perfgate
