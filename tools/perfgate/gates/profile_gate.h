#pragma once
// A program's Chrome trace recorded (the trace-event JSON that LibTorch's, Perfetto's and Chrome's profilers write)
// and where the time went printed by operator self time; or an existing trace summarised. `perfgate profile` and every
// profile gate of `perfgate gate` record through it.
#include <string>
#include <vector>

namespace perfgate {

struct ProfileRequest {
  std::string out = "trace.json", trace;
  std::vector<std::string>
      command;  ///< the program that records a Chrome trace: at "{trace}" in its arguments, else at $PERFGATE_TRACE
  int per = 1, top = 20;         ///< per: how many times the trace holds the work (times are divided by it)
  std::string per_name = "run";  ///< what one of those is called in the table ("step")
  std::vector<std::string> env;  ///< NAME=value added to the program's environment
};

/// Records (into a private folder, so an earlier trace at `out` is never summarised as this run's) or reads the trace,
/// prints its table, and keeps a recorded trace at `out` through the output discipline. Throws InputError for bad
/// input.
void record_profile(const ProfileRequest& request);

}  // namespace perfgate
