// The Google Benchmark suite whose real JSON output perfgate's reader is tested on (generate.sh writes it): what a
// suite writes besides plain timings.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

// A fast path that allocates nothing: the counter is 0 in every repetition, so the coefficient of variation of its
// aggregates is 0 / 0, which Google Benchmark writes as NaN.
void BM_ZeroCounter(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) {
    for (int i = 0; i < 64; ++i) sum += i;
    benchmark::DoNotOptimize(sum);
  }
  state.counters["allocations"] = 0;
  state.counters["items"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ZeroCounter);

// A benchmark that allocates: a counter with a finite spread beside the zero one.
void BM_Vector(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v(static_cast<size_t>(state.range(0)), 1);
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["allocations"] = 1;
}
BENCHMARK(BM_Vector)->Arg(1024)->Unit(benchmark::kMicrosecond);

// Time units other than nanoseconds.
void BM_Milliseconds(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) {
    for (int i = 0; i < 200000; ++i) sum += i % 7;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_Milliseconds)->Unit(benchmark::kMillisecond);

// A benchmark that reports an error instead of measuring.
void BM_Unsupported(benchmark::State& state) {
  state.SkipWithError("needs a device this machine does not have");
  for (auto _ : state) {
  }
}
BENCHMARK(BM_Unsupported);

}  // namespace

BENCHMARK_MAIN();
