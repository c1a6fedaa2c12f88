// Suite: one progressive training step, the trainer's own (recon::ProgressiveTrainer::step: decoder forward, physics,
// loss, read-back, backward, Adam), per pipeline and per optimisation switch (ablation: the optimized pipeline with one switch flipped from its default).
#include "heap_counter.h"
#include "injected_slowdown.h"
#include "memory_counters.h"
#include "scenarios.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <chrono>

namespace {

void run_steps(benchmark::State& state, const recon::PipelineOptions& pipeline, int64_t grid) {
  auto trainer = perf::seed_workload_trainer(perf::seed_workload(grid), pipeline);
  // Untimed warm-up, so that the allocation count below is the steady state's (plans, caches and Adam's
  // moment buffers are made in the first steps). On a GPU also half a second of steps, so that kernels loaded on first
  // use and clocks rising from idle fall outside the timing (the first benchmark of a process otherwise reads up to
  // half as fast again as the same benchmark run later).
  for (int warmup = 0; warmup < 3; ++warmup) trainer.step();
  if (pipeline.device == recon::ComputeDevice::cuda) {
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500)) trainer.step();
  }
  const auto before = perf::heap_counts();
  const double injected = pipeline.kind == recon::PipelineKind::optimized ? perf::injected_slowdown_fraction() : 0.0;
  for (auto _ : state) {
    if constexpr (perf::kSlowdownInjectionBuilt) {  // the clock is read only in the test-only build
      const auto start = std::chrono::steady_clock::now();
      trainer.step();
      perf::spin_after_step(start, injected);
    } else {
      trainer.step();
    }
  }
  const auto after = perf::heap_counts();
  const auto steps = static_cast<double>(state.iterations());
  state.counters["heap_allocs_per_step"] = static_cast<double>(after.allocations - before.allocations) / steps;
  state.counters["heap_mib_per_step"] = static_cast<double>(after.bytes - before.bytes) / steps / (1024.0 * 1024.0);
  state.counters["peak_rss_mib"] = perf::resident_mib("VmHWM");  // the process's high-water mark so far
  state.SetItemsProcessed(state.iterations());
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_TrainStep_Reference(benchmark::State& state) {
  recon::PipelineOptions p;
  p.kind = recon::PipelineKind::reference;
  run_steps(state, p, state.range(0));
}

// Each pipeline on the CUDA device (registered only where LibTorch sees one; the optimized pipeline with the switches
// its execution plan keeps there). Steps are timed on the host's clock like the others: every step reads its losses
// back, which waits for the previous step's queued work, so the steady-state time per step is the device's.
void BM_TrainStep_ReferenceCuda(benchmark::State& state) {
  recon::PipelineOptions p;
  p.kind = recon::PipelineKind::reference;
  p.device = recon::ComputeDevice::cuda;
  run_steps(state, p, state.range(0));
}

void BM_TrainStep_OptimizedCuda(benchmark::State& state) {
  recon::PipelineOptions p;
  p.device = recon::ComputeDevice::cuda;
  run_steps(state, p, state.range(0));
}

void BM_TrainStep_Optimized(benchmark::State& state) { run_steps(state, recon::PipelineOptions{}, state.range(0)); }

void BM_TrainStep_OptimizedToggled(benchmark::State& state, const std::string& name) {
  recon::PipelineOptions p;
  p.switches = p.switches.toggled(name);
  run_steps(state, p, 512);
}

void BM_TrainStep_OptimizedNoSwitches(benchmark::State& state) {
  recon::PipelineOptions p;
  p.switches = recon::OptimizationSwitches::none();
  run_steps(state, p, 512);
}

// The seed-workload step at an explicit thread count, set for the run and the process's restored after (the suite
// runs at one thread otherwise), so that one process can interleave thread counts: the optimized step against itself
// at one thread, and against the reference at the same count. Each run records the count it ran at.
void BM_TrainStep_Threads(benchmark::State& state) {
  const int previous = at::get_num_threads();
  recon::set_threads(state.range(1));
  recon::PipelineOptions p;
  p.kind = state.range(0) != 0 ? recon::PipelineKind::optimized : recon::PipelineKind::reference;
  run_steps(state, p, 512);
  // Not "threads": Google Benchmark's own key of every result (its benchmark threads), which a counter would repeat.
  state.counters["intra_op_threads"] = static_cast<double>(at::get_num_threads());
  recon::set_threads(previous);
}

}  // namespace

BENCHMARK(BM_TrainStep_Threads)
    ->ArgNames({"optimized", "threads"})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Args({0, 2})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(BM_TrainStep_Reference)->ArgName("n")->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_TrainStep_Optimized)->ArgName("n")->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_TrainStep_OptimizedNoSwitches)->Unit(benchmark::kMillisecond)->MinTime(0.5);
// One registration per switch of the table (recon/optimization_switches.h), named after it: the optimized pipeline
// with that switch flipped from its default (a saving removed together with the savings that need it, or an
// off-by-default variant tried), so each row shows that switch's share.
static const bool kCudaRegistered = [] {
  if (!at::hasCUDA()) return false;
  benchmark::RegisterBenchmark("BM_TrainStep_ReferenceCuda", BM_TrainStep_ReferenceCuda)
      ->ArgName("n")->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->MinTime(0.5);
  benchmark::RegisterBenchmark("BM_TrainStep_OptimizedCuda", BM_TrainStep_OptimizedCuda)
      ->ArgName("n")->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->MinTime(0.5);
  return true;
}();
static const bool kAblationRegistered = [] {
  if (perf::kSlowdownInjectionBuilt) benchmark::AddCustomContext("slowdown_injection_build", "yes (test-only; not a measurement of the code)");
  for (const auto& name : recon::OptimizationSwitches::names()) {
    benchmark::RegisterBenchmark(("BM_TrainStep_OptimizedToggled/" + name).c_str(), BM_TrainStep_OptimizedToggled, name)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.5);
  }
  return true;
}();
