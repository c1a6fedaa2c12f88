// Suite: the quality metrics as the trainer evaluates them after every sample (SSIM dominates).
#include "memory_counters.h"
#include "recon/metrics.h"

#include <ATen/ATen.h>
#include <benchmark/benchmark.h>

namespace {

void BM_Ssim(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto a = at::rand({n, n}), b = at::rand({n, n});
  const perf::MemoryCounters memory(state);
  for (auto _ : state) benchmark::DoNotOptimize(recon::ssim(a, b).item<double>());
  state.counters["pixels_per_s"] = benchmark::Counter(static_cast<double>(state.iterations() * n * n), benchmark::Counter::kIsRate);
}

void BM_Evaluate(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto a = at::rand({n, n}), b = at::rand({n, n});
  const perf::MemoryCounters memory(state);
  for (auto _ : state) benchmark::DoNotOptimize(recon::evaluate(a, b, n / 4).psnr_db);
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_Ssim)->ArgName("n")->Arg(128)->Arg(512)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Evaluate)->ArgName("n")->Arg(512)->Arg(1024)->Unit(benchmark::kMicrosecond);
