#pragma once
// Built revisions run interleaved, round after round, until the paired verdicts are decided or the rounds run out:
// each round runs every build forward then backward (ABBA for two), so that a drift in the machine's speed within a
// round cancels out. perfgate ab and bisect's timing mode measure with it.
#include "formats/gate_manifest.h"
#include "model/ab_analysis.h"
#include "run/worktree_build.h"

#include <string>
#include <vector>

namespace perfgate {

struct InterleavedRun {
  std::vector<std::string> labels;  ///< one per build, [0] the base
  std::vector<RevisionBuild> builds;
  std::vector<std::string> arguments;  ///< appended to the gate's command: the benchmark filter and options
  std::string results_dir;             ///< where each run's results are written
  int rounds = 6, max_rounds = 16;     ///< rounds to start with; more, two at a time, while any verdict is undecided
  double max_slowdown = 0.05;
  std::string progress_name = "ab";
};

/// Runs `gate`'s command in each build, interleaved, and compares every build with the base (compare_revisions, at
/// least as many rounds as an interval needs). `measured` receives the rounds when given. Throws InputError when no
/// benchmark matched in every run.
std::vector<AbComparison> run_interleaved(const InterleavedRun& run, const Gate& gate, const GateManifest& manifest,
                                          AbMeasurements* measured = nullptr);

}  // namespace perfgate
