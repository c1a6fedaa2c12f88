#pragma once
// Bisection on exact counts: which commit of a first-parent line first moved a figure (instructions per step) beyond
// its tolerance. Pure: the caller measures a commit when asked (a build and one run), so that one measurement per
// probe suffices and the search itself is testable without git or a compiler.
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
  bool bad = false;  ///< moved beyond the tolerance from GOOD, the way BAD moved
};

struct BisectOutcome {
  enum class Kind {
    no_change,  ///< BAD is within the tolerance of GOOD for every benchmark: nothing to bisect
    culprit,    ///< `first_bad` moved the figures beyond the tolerance by itself
    creep,      ///< `first_bad` crossed the tolerance, but its own change from its parent is within it: no single culprit
    skipped,    ///< the commits between `last_good` and `first_bad` could not be measured: the culprit is among them
  } kind = Kind::no_change;
  size_t last_good = 0, first_bad = 0;
  std::vector<std::string> moved;  ///< the benchmarks BAD moved beyond the tolerance
  std::vector<BisectProbe> probes;  ///< in the order measured
};

/// Bisects the `count` commits of a line (0 = GOOD, count - 1 = BAD) with `measure`, each commit measured at most once:
/// GOOD and BAD, then about log2(count) probes between them. A figure moved when its relative change from GOOD exceeds
/// `tolerance` in the direction BAD moved it. Throws InputError when GOOD or BAD cannot be measured, or when they
/// share no benchmark.
BisectOutcome bisect_exact(size_t count, const std::function<BisectFigures(size_t)>& measure, double tolerance);

}  // namespace perfgate
