// The example's suite: two sorts of the same 4096 pseudo-random keys. Each run reports, besides its times, the
// comparisons it made, a counter that is exact (the same on every run and machine for one standard library), so
// the gate holds it exactly while the times stay advisory.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

std::vector<std::uint32_t> keys(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::uint32_t x = 2463534242u;  // xorshift32: the same keys everywhere
  for (auto& k : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    k = x;
  }
  return v;
}

template <class Sort>
void run_sort(benchmark::State& state, Sort sort) {
  const auto input = keys(static_cast<std::size_t>(state.range(0)));
  std::int64_t comparisons = 0;
  for (auto _ : state) {
    auto v = input;
    comparisons = 0;
    sort(v, [&comparisons](std::uint32_t a, std::uint32_t b) {
      ++comparisons;
      return a < b;
    });
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["comparisons"] = static_cast<double>(comparisons);
}

void BM_StdSort(benchmark::State& state) {
  run_sort(state, [](auto& v, auto less) { std::sort(v.begin(), v.end(), less); });
}

void BM_InsertionSort(benchmark::State& state) {
  run_sort(state, [](auto& v, auto less) {
    for (std::size_t i = 1; i < v.size(); ++i) {
      for (std::size_t j = i; j > 0 && less(v[j], v[j - 1]); --j) std::swap(v[j], v[j - 1]);
    }
  });
}

}  // namespace

BENCHMARK(BM_StdSort)->Arg(4096);
BENCHMARK(BM_InsertionSort)->Arg(4096);
BENCHMARK_MAIN();
