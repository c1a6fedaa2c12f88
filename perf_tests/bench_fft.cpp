// Suite: the 2-D FFTs the pipelines use — the reference's centred transform (shifts as copies) and the plain
// FFT-order transform the optimized pipeline uses — over grid sizes.
#include "memory_counters.h"
#include "recon/fourier.h"

#include <ATen/ATen.h>
#include <benchmark/benchmark.h>

namespace {

void BM_Fft2Centred(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto x = at::randn({n, n}, at::kComplexFloat);
  const perf::MemoryCounters memory(state);
  for (auto _ : state) benchmark::DoNotOptimize(recon::fft2c(x));
  state.SetItemsProcessed(state.iterations() * n * n);
  state.counters["pixels_per_s"] = benchmark::Counter(static_cast<double>(state.iterations() * n * n), benchmark::Counter::kIsRate);
}

void BM_Fft2Plain(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto x = at::randn({n, n}, at::kComplexFloat);
  const perf::MemoryCounters memory(state);
  for (auto _ : state) benchmark::DoNotOptimize(at::fft_fft2(x, c10::nullopt, {-2, -1}, "ortho"));
  state.SetItemsProcessed(state.iterations() * n * n);
  state.counters["pixels_per_s"] = benchmark::Counter(static_cast<double>(state.iterations() * n * n), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_Fft2Centred)->ArgName("n")->RangeMultiplier(2)->Range(128, 2048)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Fft2Plain)->ArgName("n")->RangeMultiplier(2)->Range(128, 2048)->Unit(benchmark::kMicrosecond);
