#pragma once
// Running another program: always by argument vector (never through a shell), optionally in another folder and
// with extra environment variables.
#include <string>
#include <vector>

namespace perfgate {

struct ProcessResult {
  int status = -1;         ///< exit status; -1 when it could not start or was killed by a signal
  std::string output;      ///< standard output (and standard error with StandardError::merge); beyond 24 MiB only
                           ///< the first and last 8 MiB are kept
  bool timed_out = false;  ///< it ran past ProcessOptions::timeout_seconds and was killed
};

enum class StandardError { inherit, discard, merge };

struct ProcessOptions {
  std::string directory;         ///< working folder of the child; "" for ours
  std::vector<std::string> env;  ///< "NAME=value" entries added to (or replacing in) our environment
  StandardError standard_error = StandardError::inherit;
  bool capture_output = true;  ///< false: the child's standard output goes to ours (progress of long builds)
  /// > 0: a time limit. The child runs in its own process group, and the whole group is killed (SIGKILL) when
  /// the limit passes, so a hung benchmark or its children cannot hang perfgate.
  double timeout_seconds = 0.0;
  std::vector<std::string> unset;  ///< names removed from the child's environment
  std::string standard_input;      ///< a file read as the child's standard input; "" keeps ours
  std::string
      standard_error_file;  ///< with StandardError::inherit: a file (created, truncated) for the child's standard error
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

/// One run of a program timed: standard output and error go to /dev/null (or `standard_error_file`), nothing is
/// captured, so the time is the program's and perfgate's spawning, never perfgate reading its output.
struct TimedProcess {
  int status = -1;  ///< exit status; -1 when it could not start or was killed by a signal
  bool timed_out = false;
  double wall_seconds = 0.0;  ///< from just before the spawn to the child's end (a monotonic clock)
  double cpu_seconds = 0.0;   ///< user plus system time of the child and its waited-for children (wait4)
};

/// Runs `argv` once and times it; with `timeout_seconds` > 0 its process group is killed
/// when the limit passes. Never throws for the program's failure: the caller judges status and timed_out.
TimedProcess run_timed(const std::vector<std::string>& argv, double timeout_seconds,
                       const std::string& standard_error_file = "");

/// The end of a program's output (at most `limit` characters) on one line, for an error message: line breaks
/// and other control characters become spaces, surrounding blanks are trimmed.
std::string output_tail(const std::string& output, size_t limit = 300);

}  // namespace perfgate
