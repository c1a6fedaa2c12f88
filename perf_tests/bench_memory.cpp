// Suite: memory of a long training run — peak resident memory, and the trend of resident memory after warm-up
// (a robust Theil–Sen slope over samples every 50 steps, not two snapshots), so that a leak of even a few
// kilobytes per step shows while allocator noise does not; and heap allocations per step after warm-up, a count
// that does not depend on timing noise.
#include "heap_counter.h"
#include "memory_counters.h"
#include "scenarios.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr int64_t kSteps = 1000, kWarmup = 200, kEvery = 50;

// Median of the pairwise slopes: insensitive to a few outlying samples (allocator caching, page reuse).
double theil_sen_slope(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> slopes;
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = i + 1; j < x.size(); ++j) slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
  std::nth_element(slopes.begin(), slopes.begin() + static_cast<std::ptrdiff_t>(slopes.size() / 2), slopes.end());
  return slopes[slopes.size() / 2];
}

void BM_TrainingMemory(benchmark::State& state) {
  recon::PipelineOptions pipeline;
  pipeline.kind = state.range(0) != 0 ? recon::PipelineKind::optimized : recon::PipelineKind::reference;
  const auto w = perf::seed_workload(512);
  std::vector<double> steps, rss;
  perf::HeapCounts after_warmup, at_end;
  for (auto _ : state) {
    auto trainer = perf::seed_workload_trainer(w, pipeline);
    for (int64_t step = 1; step <= kSteps; ++step) {
      trainer.step();
      if (step == kWarmup) after_warmup = perf::heap_counts();
      if (step > kWarmup && step % kEvery == 0) {
        steps.push_back(static_cast<double>(step));
        rss.push_back(perf::resident_mib("VmRSS"));
      }
    }
    at_end = perf::heap_counts();
  }
  // Deterministic for a given build and library set: the same steps make the same allocations, whatever the load.
  const auto counted_steps = static_cast<double>(kSteps - kWarmup);
  state.counters["heap_allocs_per_step"] = static_cast<double>(at_end.allocations - after_warmup.allocations) / counted_steps;
  state.counters["heap_mib_per_step"] = static_cast<double>(at_end.bytes - after_warmup.bytes) / counted_steps / (1024.0 * 1024.0);
  state.counters["peak_rss_mib"] = perf::resident_mib("VmHWM");
  state.counters["rss_slope_kib_per_100_steps"] = theil_sen_slope(steps, rss) * 1024.0 * 100.0;
  state.counters["steps"] = static_cast<double>(kSteps);
}

}  // namespace

// Each pipeline in its own process run would give its own peak; in one process the second inherits the first's
// high-water mark, so run them with --benchmark_filter one at a time when the peak matters (ctest does).
BENCHMARK(BM_TrainingMemory)->ArgName("optimized")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);
