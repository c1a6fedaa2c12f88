// Suite: the decoder alone — forward (no grad) and forward + backward — in its reference form and with the
// optimized pipeline's decoder switches.
#include "memory_counters.h"
#include "scenarios.h"

#include <benchmark/benchmark.h>
#include <torch/autograd.h>

namespace {

recon::PipelineOptions pipeline_of(int64_t optimized) {
  recon::PipelineOptions p;
  p.kind = optimized != 0 ? recon::PipelineKind::optimized : recon::PipelineKind::reference;
  return p;
}

void BM_DecoderForward(benchmark::State& state) {
  auto d = perf::decoder_for(perf::seed_workload(state.range(0)), pipeline_of(state.range(1)));
  torch::NoGradGuard no_grad;
  const perf::MemoryCounters memory(state);
  for (auto _ : state) benchmark::DoNotOptimize(d->forward_object());
  state.SetItemsProcessed(state.iterations());
}

void BM_DecoderForwardBackward(benchmark::State& state) {
  auto d = perf::decoder_for(perf::seed_workload(state.range(0)), pipeline_of(state.range(1)));
  const perf::MemoryCounters memory(state);
  for (auto _ : state) {
    for (auto& p : d->parameters()) p.mutable_grad() = at::Tensor();
    d->forward_object().sum().backward();
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_DecoderForward)->ArgNames({"n", "optimized"})->ArgsProduct({{256, 512, 1024}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecoderForwardBackward)->ArgNames({"n", "optimized"})->ArgsProduct({{256, 512, 1024}, {0, 1}})->Unit(benchmark::kMillisecond);
