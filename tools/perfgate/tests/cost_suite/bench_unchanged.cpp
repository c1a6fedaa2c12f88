// A Google Benchmark suite as a project writes it, with no line for perfgate: a plain function, one with an argument,
// a fixture and a lambda registered at run time. PLANT_EXTRA_LOOP=1 adds a loop of 100 additions to every iteration of
// BM_Accumulate/4096 alone (the plant the cost gate must catch); every other benchmark runs the same either way.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

bool planted() {
  const char* value = std::getenv("PLANT_EXTRA_LOOP");
  return value != nullptr && std::string(value) == "1";
}

void BM_Accumulate(benchmark::State& state) {
  const std::vector<std::int64_t> values(static_cast<std::size_t>(state.range(0)), 3);
  const bool extra = planted() && state.range(0) == 4096;
  for (auto _ : state) {
    std::int64_t sum = std::accumulate(values.begin(), values.end(), std::int64_t{0});
    if (extra) {
      for (int i = 0; i < 100; ++i) {
        sum += i;
        benchmark::DoNotOptimize(sum);
      }
    }
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_Accumulate)->Arg(64)->Arg(4096);

struct Strings : benchmark::Fixture {
  std::vector<std::string> words;
  void SetUp(const benchmark::State&) override { words.assign(256, "perfgate"); }
};
BENCHMARK_F(Strings, Join)(benchmark::State& state) {
  for (auto _ : state) {
    std::string joined;
    for (const auto& w : words) joined += w;
    benchmark::DoNotOptimize(joined.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::RegisterBenchmark("Lambda/square_roots", [](benchmark::State& state) {
    for (auto _ : state) {
      double x = 0;
      for (int i = 1; i < 200; ++i) x += static_cast<double>(i) / (x + 1.0);
      benchmark::DoNotOptimize(x);
    }
  });
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
