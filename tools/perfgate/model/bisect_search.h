#pragma once
// Bisection: which commit of a first-parent line first moved a figure beyond its tolerance. On exact counts
// (instructions per step), one measurement per probe; on timings, each probe compared with GOOD, paired and
// interleaved, and the commit found confirmed against its parent before it is named. Pure: the caller measures a commit
// when asked, so that the search itself is testable without git, a compiler or a clock.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// A commit's figures, by benchmark; nullopt when the commit could not be measured (it does not build): skipped.
using BisectFigures = std::optional<std::map<std::string, double>>;

struct BisectProbe {
  size_t index = 0;  ///< position on the line: 0 is GOOD, the last is BAD
  BisectFigures figures;
  bool bad = false;        ///< moved beyond the tolerance from GOOD, the way BAD moved
  bool undecided = false;  ///< timings: measured, but neither within the tolerance of GOOD nor beyond it
};

struct BisectOutcome {
  enum class Kind {
    no_change,  ///< BAD is within the tolerance of GOOD for every benchmark: nothing to bisect
    culprit,    ///< `first_bad` moved the figures beyond the tolerance by itself
    creep,    ///< `first_bad` crossed the tolerance, but its own change from its parent is within it: no single culprit
    skipped,  ///< the commits between `last_good` and `first_bad` could not be measured: the culprit is among them
    unconfirmed,  ///< timings: the search ended at `first_bad`, but measured anew against its parent it is not slower
    undecided,    ///< timings: BAD measured against GOOD is neither within the tolerance nor beyond it
  } kind = Kind::no_change;
  size_t last_good = 0, first_bad = 0;
  std::vector<std::string> moved;   ///< the benchmarks BAD moved beyond the tolerance
  std::vector<BisectProbe> probes;  ///< in the order measured
};

/// Bisects the `count` commits of a line (0 = GOOD, count - 1 = BAD) with `measure`, each commit measured at most once:
/// GOOD and BAD, then about log2(count) probes between them. A figure moved when its relative change from GOOD exceeds
/// `tolerance` in the direction BAD moved it. Throws InputError when GOOD or BAD cannot be measured, or when they
/// share no benchmark.
BisectOutcome bisect_exact(size_t count, const std::function<BisectFigures(size_t)>& measure, double tolerance);

/// A commit measured against GOOD on timings: its figures (each benchmark's time relative to GOOD's), or nullopt when
/// it does not build; bad when slower than GOOD beyond the tolerance, good when within it, else undecided.
struct TimingProbe {
  BisectFigures figures;
  enum class Verdict { good, bad, undecided } verdict = Verdict::undecided;
  std::vector<std::string> slower;  ///< BAD's: the benchmarks slower than GOOD's beyond the tolerance
};

/// Bisects on timings with `compare_with_good(i)` (never asked for 0), each commit compared at most once: BAD first (no
/// change when good, undecided when undecided), then about log2(count) probes, stepping over commits that do not build
/// or are undecided, as bisect_exact steps over commits that do not build. The commit found is named only when
/// `confirm(parent, commit)`, a new paired measurement of the two, finds it slower: `unconfirmed` otherwise.
BisectOutcome bisect_timing(size_t count, const std::function<TimingProbe(size_t)>& compare_with_good,
                            const std::function<bool(size_t, size_t)>& confirm);

/// The name of an outcome's kind in bisect --json: "no_change", "culprit", "creep", "skipped", "unconfirmed",
/// "undecided".
std::string to_string(BisectOutcome::Kind kind);

}  // namespace perfgate
