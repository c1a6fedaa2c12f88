// The example's cost program, for perfgate's callgrind tier (a cost gate): each sort of the suite's keys three times,
// each sort one measured step. Instrumentation is off until the first measured step (perfgate runs valgrind with
// --instr-atstart=no); each step starts from zeroed counts and ends with CALLGRIND_DUMP_STATS_AT(<benchmark name>),
// which perfgate reads as one repetition of that benchmark. Outside valgrind the requests do nothing.
#include "sorts.h"

#include <valgrind/callgrind.h>

#include <cstdio>

namespace {

template <class Sort>
void measure(const char* name, Sort sort) {
  const auto input = example::keys(4096);
  {
    auto warm = input;
    sort(warm);  // pages and code touched once before anything is counted
  }
  CALLGRIND_START_INSTRUMENTATION;
  for (int step = 0; step < 3; ++step) {
    auto v = input;
    CALLGRIND_ZERO_STATS;
    const auto comparisons = sort(v);
    CALLGRIND_DUMP_STATS_AT(name);
    if (v.front() > v.back()) return;  // uses the result, so the sort cannot be dropped
    std::printf("%s: %lld comparisons\n", name, static_cast<long long>(comparisons));
  }
  CALLGRIND_STOP_INSTRUMENTATION;
}

}  // namespace

int main() {
  measure("BM_StdSort/4096", example::std_sort);
  measure("BM_InsertionSort/4096", example::insertion_sort);
  return 0;
}
