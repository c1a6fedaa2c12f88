// Suite: whole reconstructions (initialisation plus every sample) with their final quality as counters; one
// iteration each, since one iteration is a complete run.
#include "memory_counters.h"
#include "scenarios.h"

#include <benchmark/benchmark.h>

namespace {

// Arguments: pipeline (0 reference, 1 optimized), seed, and a size class (0: seed workload, 1: small).
void BM_Reconstruction(benchmark::State& state) {
  recon::PipelineOptions pipeline;
  pipeline.kind = state.range(0) != 0 ? recon::PipelineKind::optimized : recon::PipelineKind::reference;
  const auto seed = static_cast<uint64_t>(state.range(1));
  auto w = perf::seed_workload(state.range(2) == 0 ? 512 : 128);
  if (state.range(2) != 0) w.samples = 10;
  const auto problem = perf::problem(w);
  recon::TrainerOptions options;
  options.pipeline = pipeline;
  recon::DecoderOptions decoder_options(w.grid, w.object);
  recon::apply_preset(recon::SettingsPreset::robust, decoder_options, options);
  recon::ReconstructionResult result;
  const perf::MemoryCounters memory(state);
  for (auto _ : state) {
    recon::seed_everything(seed);
    recon::ProgressiveDecoder decoder(decoder_options);
    result = recon::reconstruct(decoder, problem, options);
  }
  const auto& q = result.samples.back().quality;
  state.counters["psnr_db"] = q.psnr_db;
  state.counters["ssim"] = q.ssim;
  state.counters["steps"] = static_cast<double>(result.total_steps);
  state.counters["ms_per_step"] = 1000.0 * result.seconds_total / static_cast<double>(result.total_steps);
}

}  // namespace

BENCHMARK(BM_Reconstruction)
    ->ArgNames({"optimized", "seed", "small"})
    ->ArgsProduct({{0, 1}, {0, 1, 2, 3, 4}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
