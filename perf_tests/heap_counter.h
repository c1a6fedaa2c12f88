#pragma once
// Heap allocation counts of this process: a cost measure that does not depend on timing noise. Every suite
// executable links heap_counter.cpp, which interposes the C allocator (malloc, calloc, realloc, the aligned
// variants) and counts each successful allocation before handing it to glibc's own implementation, so the
// counts include LibTorch, OpenBLAS and FFTW as well as the project's code.
#include <cstdint>

namespace perf {

struct HeapCounts {
  uint64_t allocations = 0;  ///< successful allocating calls (a realloc that moves or grows counts once)
  uint64_t bytes = 0;        ///< bytes requested by those calls
};

/// Totals since the process started (relaxed atomics: exact once the threads that allocate have joined).
HeapCounts heap_counts();

}  // namespace perf
