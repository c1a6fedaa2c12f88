// Shared main of every suite: fixes the thread count, records the context a result needs to be compared, runs. The
// commit is not among them: perfgate adds git_sha (--benchmark_context) where it runs a suite, at that moment.
#include "machine_fingerprint.h"
#include "recon/runtime.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#ifndef PERFGATE_BUILD_TYPE
#define PERFGATE_BUILD_TYPE "unknown"
#endif

int main(int argc, char** argv) {
  // One thread unless PERFGATE_THREADS says otherwise: two threads are erratic on this 2-vCPU VM.
  const char* threads = std::getenv("PERFGATE_THREADS");
  recon::set_threads(threads != nullptr ? std::atoll(threads) : 1);
  const auto info = recon::runtime_info();
  benchmark::AddCustomContext("build_type", PERFGATE_BUILD_TYPE);
  benchmark::AddCustomContext("torch_version", info.torch_version);
  benchmark::AddCustomContext("threads", std::to_string(info.threads));
  benchmark::AddCustomContext("cpu_model", info.cpu_model);
  benchmark::AddCustomContext("isa", info.cpu_capability);
  benchmark::AddCustomContext("blas_kernels", info.blas_kernels);
  // Absolute timings in a baseline are advisory and compared only on a machine with the same fingerprint.
  auto machine = perf::machine_description(info.cpu_model, info.cpu_capability, static_cast<int>(info.threads), PERFGATE_BUILD_TYPE);
  // The accelerator, where the caller names it (tools/gpu-check: the GPU, its driver, CUDA and LibTorch): part of the
  // machine, so that a GPU's absolute timings are compared on the same GPU only.
  if (const char* device = std::getenv("PERFGATE_DEVICE"); device != nullptr && *device != '\0') {
    benchmark::AddCustomContext("device", device);
    machine += "|" + std::string(device);
  }
  benchmark::AddCustomContext("machine", machine);
  benchmark::AddCustomContext("machine_fingerprint", perf::machine_fingerprint(machine));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
