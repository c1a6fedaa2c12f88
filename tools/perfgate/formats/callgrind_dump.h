#pragma once
// Callgrind's output files: the event totals of one dump, and what they cost. Pure (text in, numbers out); the
// `cost` command runs valgrind and turns the dumps into results.
#include <map>
#include <string>
#include <vector>

namespace perfgate {

/// One dump of callgrind's profile data (one file of --callgrind-out-file).
struct CallgrindDump {
  std::string trigger;  ///< "Client Request: NAME" for CALLGRIND_DUMP_STATS_AT(NAME), else why it dumped
  std::map<std::string, double> events;  ///< event name ("Ir", "D1mr", ...) → total over the dump
  /// Calls of the C library's allocators (malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign, valloc)
  /// over the dump, from its call records: heap allocations, operator new's included (it calls malloc).
  double allocations = 0.0;
};

/// Parses the header, the totals and the allocator calls of a callgrind output file (format version 1). Throws
/// InputError naming `source` when it is not one: no "events:" line, no "summary:"/"totals:" line, or counts that do
/// not match the events or are not non-negative integers.
CallgrindDump parse_callgrind_dump(const std::string& text, const std::string& source);

/// True when the output file's trigger is a CALLGRIND_DUMP_STATS_AT client request (read from the header only: the
/// dump callgrind writes at program termination is not measured and its totals are not reliable after zeroing).
bool is_client_request_dump(const std::string& text);

/// The name given to CALLGRIND_DUMP_STATS_AT, or "" when the dump was not triggered by that client request.
std::string client_request_name(const CallgrindDump& dump);

/// Callgrind's cycle estimate (as KCachegrind computes it): Ir + 10 × L1 misses + 100 × last-level misses, from the
/// cache simulation's events. Throws InputError when the dump has no cache simulation events (--cache-sim=no).
double estimated_cycles(const CallgrindDump& dump);

/// Per-step cost of each named region: the dumps grouped by client-request name (other dumps ignored), in the
/// order given. Each value of `instructions` and `estimated_cycles` is one dump, i.e. one measured step.
struct RegionCost {
  std::string name;
  std::vector<double> instructions, estimated_cycles;
  std::vector<double> heap_allocations;  ///< only where they are attributed (a suite's benchmarks), else empty
};
std::vector<RegionCost> region_costs(const std::vector<CallgrindDump>& dumps);

}  // namespace perfgate
