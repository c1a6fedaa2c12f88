#pragma once
// The command line perfgate gives every suite it runs is Google Benchmark's: --benchmark_out=FILE,
// --benchmark_out_format=json, --benchmark_context=KEY=VALUE (the commit, the host), and for a paired speedup
// --benchmark_filter=REGEX, --benchmark_repetitions=N and --benchmark_enable_random_interleaving=true. perfgate's
// runners for other harnesses (perfgate catch2, perfgate time) take these flags on the harness's behalf, so that a
// suite of any harness is run by every command (gate, update, calibrate, ab, bisect) exactly as a Google Benchmark
// suite is.
#include "model/results.h"

#include <regex.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

struct SuiteFlags {
  std::string out;                                           ///< --benchmark_out
  std::vector<std::pair<std::string, std::string>> context;  ///< --benchmark_context, in order (the first value wins)
  std::string filter;              ///< --benchmark_filter: a regular expression (POSIX extended, as Google Benchmark's)
  std::optional<int> repetitions;  ///< --benchmark_repetitions
};

/// A --benchmark_filter: a POSIX extended regular expression, as Google Benchmark reads it, matched anywhere in a name
/// by the C library's matcher, which neither recurses nor backtracks without bound on a long name.
class NameFilter {
 public:
  /// Throws InputError for a pattern that is not a regular expression or is longer than 1000 characters. An empty
  /// pattern matches every name.
  explicit NameFilter(const std::string& pattern);
  ~NameFilter();
  NameFilter(const NameFilter&) = delete;
  NameFilter& operator=(const NameFilter&) = delete;
  bool matches(const std::string& name) const;

 private:
  regex_t compiled_{};
  bool any_ = true;
};

/// Takes Google Benchmark's flags (the underscore spelling, --benchmark_NAME=VALUE) out of `words`, wherever they
/// stand, leaving the rest in order. Throws InputError for a flag the runners cannot honour (--benchmark_min_time:
/// each harness decides how long it measures), an output format other than json, a malformed context, a repetition
/// count outside [1, 1000000] and a filter that is not a regular expression or is longer than 1000 characters.
SuiteFlags take_suite_flags(std::vector<std::string>& words);

/// Keeps of `results` the benchmarks whose names `filter` matches (NameFilter); all when it is empty. Throws InputError
/// when it matches none.
void keep_filtered(Results& results, const std::string& filter);

/// Records the context: each key's first value, never replacing one the results hold; then what perfgate records
/// where it runs a suite itself, where neither gives it: the commit of the working folder (git_sha; a note says when
/// there is none), the host (run/host_context.h: cpu_name, machine_name), and the host's identity (machine_fingerprint
/// and machine from its processors and caches, as Google Benchmark's context gives them; model/machine_identity.h).
void record_context(Results& results, const std::vector<std::pair<std::string, std::string>>& context);

}  // namespace perfgate
