#pragma once
// Running a program under valgrind's callgrind and reading the per-step costs of the regions it marked: the one
// way perfgate measures instructions (perfgate cost, perfgate ab --cost).
#include "callgrind_dump.h"

#include <map>
#include <string>
#include <vector>

namespace perfgate {

struct CostRun {
  std::vector<RegionCost> regions;             ///< each CALLGRIND_DUMP_STATS_AT(name) region, its steps in order
  std::map<std::string, std::string> context;  ///< the program's "context KEY VALUE" lines
  std::string valgrind;                        ///< valgrind's version
  double seconds = 0.0;                        ///< wall time under valgrind
};

/// Runs `command` under callgrind with instrumentation off at start and the cache simulation on, its dumps in a
/// private temporary folder (removed on every path). Throws InputError when valgrind is not installed, the program
/// fails, or it dumped no named region.
CostRun measure_cost(const std::vector<std::string>& command);

}  // namespace perfgate
