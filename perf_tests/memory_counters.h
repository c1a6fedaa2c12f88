#pragma once
// Memory figures every suite reports: heap allocations and bytes per iteration of the timed loop (counted by
// heap_counter.cpp; deterministic for a build and library set) and the process's peak resident memory so far.
#include "heap_counter.h"

#include <benchmark/benchmark.h>

#include <string>

namespace perf {

/// Resident (`VmRSS`) or peak resident (`VmHWM`) memory of this process in MiB, from /proc/self/status.
double resident_mib(const std::string& key);

/// Construct right before the timed loop; when it goes out of scope (after the loop) it adds the counters
/// heap_allocs_per_iter, heap_mib_per_iter and peak_rss_mib (the process's high-water mark, which includes
/// whatever ran before in the same process: run one benchmark per process when the peak matters).
class MemoryCounters {
 public:
  explicit MemoryCounters(benchmark::State& state) : state_(state), before_(heap_counts()) {}
  ~MemoryCounters();
  MemoryCounters(const MemoryCounters&) = delete;
  MemoryCounters& operator=(const MemoryCounters&) = delete;

 private:
  benchmark::State& state_;
  HeapCounts before_;
};

}  // namespace perf
