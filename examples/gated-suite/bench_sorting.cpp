// The example's suite: two sorts of the same 4096 pseudo-random keys (sorts.h). Each run reports, besides its times,
// the comparisons it made, a counter that is exact (the same on every run and machine for one standard library), so
// the gate holds it exactly while the times stay advisory; the pair's speedup is a gate of its own (gates.json).
#include "sorts.h"

#include <benchmark/benchmark.h>

namespace {

template <class Sort>
void run_sort(benchmark::State& state, Sort sort) {
  const auto input = example::keys(static_cast<std::size_t>(state.range(0)));
  std::int64_t comparisons = 0;
  for (auto _ : state) {
    auto v = input;
    comparisons = sort(v);
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["comparisons"] = static_cast<double>(comparisons);
}

void BM_StdSort(benchmark::State& state) { run_sort(state, example::std_sort); }
void BM_InsertionSort(benchmark::State& state) { run_sort(state, example::insertion_sort); }

}  // namespace

BENCHMARK(BM_StdSort)->Arg(4096);
BENCHMARK(BM_InsertionSort)->Arg(4096);
BENCHMARK_MAIN();
