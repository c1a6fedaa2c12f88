#pragma once
// Running a program under valgrind's callgrind and reading the per-step costs of the regions it marked: the one
// way perfgate measures instructions (perfgate cost, perfgate ab --cost).
#include "formats/callgrind_dump.h"
#include "formats/function_profile_file.h"
#include "model/simulated_cache.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace perfgate {

struct CostRun {
  std::vector<RegionCost> regions;  ///< each CALLGRIND_DUMP_STATS_AT(name) region, its steps in order
  /// Each region's functions in its median step (by instructions; the lower of the two middle steps of an even
  /// count): the step whose count a baseline records, so that its functions add up to that count.
  RegionProfiles profiles;
  std::map<std::string, std::string> context;  ///< the program's "context KEY VALUE" lines
  std::string valgrind;                        ///< valgrind's version
  std::string emulated;                        ///< "RDTSCP" or "RDPID" when the run needed the emulator, else ""
  double seconds = 0.0;                        ///< wall time under valgrind
  /// A suite's benchmarks: the iterations of each one's last call, the N its count per iteration divides by.
  std::map<std::string, int64_t> iterations;
};

/// How the program is run: the simulated caches (none: callgrind takes this machine's), entries added to its
/// environment, and a time limit (0: none).
struct CostSettings {
  std::vector<SimulatedCache> cache;
  std::vector<std::string> env;
  double timeout_seconds = 0.0;  ///< for the whole program, or the whole suite (each benchmark's run gets what is left)
  /// The command is an unchanged Google Benchmark suite: each benchmark it lists runs alone, and its region is its
  /// cost per iteration (one step; no function profile).
  bool google_benchmark_suite = false;
  /// Non-empty: the command marks nothing (a command-line tool, a test binary), and the whole run, from its first
  /// instruction to its exit (dynamic loading and start-up included), is one step of the benchmark of this name,
  /// with its function profile; the processes it starts are counted too (each traced, their counts summed). A
  /// program that dumps counts of its own is refused (a dump is a part of a run).
  std::string whole_program;
};

/// Runs `command` under callgrind with instrumentation off at start and the cache simulation on, its dumps in a
/// private temporary folder (removed on every path). A Google Benchmark suite (settings.google_benchmark_suite) runs
/// once per benchmark instead, each attributed its instructions and cycle estimate per iteration (cost_runner.cpp).
/// Where valgrind stopped the program at RDTSCP or RDPID, which it cannot decode on some hosts, the program is run
/// again with perfgate's instruction emulator (instruction_emulator.c) in its LD_AUDIT (CostRun::emulated); a program
/// valgrind runs is run exactly as asked. Throws HostUnsupported when valgrind ended the program at an instruction it
/// cannot decode (the message names it, who ran it and the way out); InputError when valgrind is not installed, the
/// program fails otherwise or runs past its time limit, or it dumped no named region.
CostRun measure_cost(const std::vector<std::string>& command, const CostSettings& settings = {});

}  // namespace perfgate
