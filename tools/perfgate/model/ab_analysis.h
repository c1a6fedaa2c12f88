#pragma once
// The paired verdict of `perfgate ab`: per round, each revision's time of each benchmark; per benchmark, the
// median of the per-round ratios head/base with a distribution-free interval. Pure.
#include "model/accept_rules.h"
#include "model/function_changes.h"
#include "model/speedup.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// rounds[r][benchmark][i]: revision i's time in round r (the geometric mean of its runs in that round).
struct AbMeasurements {
  std::vector<std::string> revisions;  ///< labels; [0] is the base
  std::string unit;
  std::vector<std::map<std::string, std::vector<double>>> rounds;
};

struct AbComparison {
  std::string benchmark, base, head, unit;
  double base_median = 0.0, head_median = 0.0;
  std::vector<double> ratios;  ///< head / base per round: > 1 is slower
  double median = 0.0, low = 0.0, high = 0.0, confidence = 0.0;
  SpeedupVerdict verdict = SpeedupVerdict::inconclusive;
  /// A FAIL's acceptance by a rule (accept_rules.h), judged on the interval's upper end: accepted only when even the
  /// slowest plausible head is within the allowance.
  std::optional<Acceptance> acceptance;
};

/// PASS, FAIL, INCONCLUSIVE, or ACCEPTED for a FAIL within an accepting rule's allowance.
std::string verdict_text(const AbComparison& c);

/// One comparison per (benchmark, non-base revision) present in every round. Intervals are Bonferroni-adjusted
/// so that all of them together hold with `family_confidence`. PASS when the interval's upper end is at most
/// The largest tolerance ab and bisect take for a slowdown or an instruction increase (10: 1000 %): the one bound both
/// the command line and the reader of ab's JSON hold, so a file that states more was not written by ab.
constexpr double kMaxToleratedChange = 10.0;

/// 1 + max_slowdown, FAIL when its lower end is above it, INCONCLUSIVE otherwise (also with too few rounds).
std::vector<AbComparison> compare_revisions(const AbMeasurements& m, double max_slowdown,
                                            double family_confidence = 0.95);

/// The exact half of an A/B: one benchmark's instructions per step in base and head (deterministic counts, so no
/// interval). `change` is head / base − 1: positive when head does more work.
struct CostChange {
  std::string benchmark;
  double base = 0.0, head = 0.0, change = 0.0;
  bool fail = false;                        ///< change > max_increase
  std::optional<Acceptance> acceptance;     ///< a FAIL's acceptance by a rule, judged on `change`
  std::optional<ProfileChanges> functions;  ///< which functions moved the count, when it moved (perfgate ab --cost)
};

/// PASS, FAIL, or ACCEPTED for a FAIL within an accepting rule's allowance.
std::string verdict_text(const CostChange& c);

/// Applies accepting rules to the FAILs (field "real_time" for timings, "instructions" for costs); nothing else
/// changes. A FAIL stays a FAIL beyond its rule's allowance, with the rule recorded.
void apply_acceptance(std::vector<AbComparison>& timings, const std::vector<AcceptRule>& rules);
void apply_acceptance(std::vector<CostChange>& costs, const std::vector<AcceptRule>& rules);

/// True when the comparison fails the A/B (a FAIL not accepted).
bool fails(const AbComparison& c);
bool fails(const CostChange& c);

/// One CostChange per benchmark present in both maps, in the base map's order. Throws InputError on a count that
/// is not a positive finite number.
std::vector<CostChange> compare_costs(const std::map<std::string, double>& base,
                                      const std::map<std::string, double>& head, double max_increase);

/// Rounds needed before any interval at `confidence` exists: the smallest n with 2·(½)ⁿ ≤ 1 − confidence.
int rounds_needed(double confidence);

}  // namespace perfgate
