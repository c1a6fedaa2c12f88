// Suite: the physics of one step without the decoder — the measurement operator, and the loss of both rows with
// its backward pass, per pipeline, on a fixed output image.
#include "recon/measurement.h"
#include "memory_counters.h"
#include "scenarios.h"

#include <benchmark/benchmark.h>
#include <torch/autograd.h>

namespace {

void BM_Measurement(benchmark::State& state) {
  const auto w = perf::seed_workload(state.range(0));
  const auto s = perf::mid_run_sample(w);
  const auto mask = recon::disc_mask(w.grid, s.center, w.radius);
  const perf::MemoryCounters memory(state);
  for (auto _ : state) benchmark::DoNotOptimize(recon::measure_amplitude(s.ground_truth, mask));
  state.SetItemsProcessed(state.iterations());
}

// Physics only: row losses of a fixed output image and their gradient with respect to that image.
void BM_PhysicsLossBackward(benchmark::State& state) {
  const auto w = perf::seed_workload(512);
  recon::PipelineOptions p;
  p.kind = state.range(0) != 0 ? recon::PipelineKind::optimized : recon::PipelineKind::reference;
  auto objective = recon::make_objective(perf::mid_run_sample(w), p);
  auto object = at::rand({1, 1, w.object, w.object}).requires_grad_(true);
  const perf::MemoryCounters memory(state);
  for (auto _ : state) {
    auto losses = (*objective)(object);
    auto total = losses.old_row + losses.new_row;
    benchmark::DoNotOptimize(total.item<double>());
    object.mutable_grad() = at::Tensor();
    total.backward();
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_PhysicsLossBackward)->ArgName("optimized")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Measurement)->ArgName("n")->RangeMultiplier(2)->Range(256, 2048)->Unit(benchmark::kMillisecond);
