#pragma once
// Timing whole commands, for projects with no benchmark library (perfgate time): each command run again and again,
// the commands interleaved round by round, so that a drift of the machine reaches every command alike and two
// commands' runs pair up for a speedup.
#include "model/results.h"

#include <string>
#include <vector>

namespace perfgate {

struct TimedCommand {
  std::string name;  ///< the benchmark's name in the results
  std::string text;  ///< run as /bin/sh -c TEXT
};

struct TimingPlan {
  int runs = 10;   ///< recorded runs of each command: its repetitions
  int warmup = 1;  ///< runs of each command first, not recorded (caches, page cache, lazy binding); with hyperfine,
                   ///< before each recorded run, in its hyperfine invocation
  double timeout_seconds = 0.0;  ///< > 0: each run's time limit
  bool hyperfine = false;        ///< each run timed by hyperfine (--runs 1 --shell=none: the text split into words by
                                 ///< hyperfine, quotes respected, no shell syntax) instead of by perfgate
};

/// Runs the commands in rounds: round r runs every command once, in the given order when r is even and reversed when
/// it is odd (A B, B A, A B, ...), so that neither command always runs first. Repetition r of each command is its run
/// in round r, with real_time and cpu_time (user plus system) in seconds. (No peak memory: a child spawned from
/// perfgate reports perfgate's own resident set until it execs, so its maximum would be perfgate's.) Throws InputError
/// naming the command and run when one fails (exit status not 0, with the end of its standard error), runs past the
/// time limit, or when hyperfine is asked for and not installed.
Results time_commands(const std::vector<TimedCommand>& commands, const TimingPlan& plan);

/// The order of the commands in round `round` (indices into the commands).
std::vector<size_t> round_order(size_t commands, int round);

}  // namespace perfgate
