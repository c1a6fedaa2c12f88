// The cost tier's workload (ctest label `cost`): training steps whose instruction counts callgrind measures.
// `perfgate cost -- cost_step` runs this under valgrind with instrumentation off at start (LibTorch's start-up is
// not instrumented). Each benchmark warms up uninstrumented (plans, caches, the caching allocator's blocks), then
// runs one instrumented step that is not counted (the cache simulation starts cold when instrumentation starts: that
// step's cycle estimate was 1.3-1.5x the next one's), then each measured step, bracketed by client requests and ended
// by a callgrind dump named after its benchmark. perfgate reads one instruction count and one cache-simulated cycle
// estimate per dump, i.e. per step.
// Outside valgrind the client requests do nothing and the program just runs the steps (a quick smoke run).
// Prints "context KEY VALUE" lines (threads, LibTorch version, the dispatch level ATen chose, which under valgrind is
// that of the CPU valgrind emulates) for perfgate to record.
#include "recon/pipeline.h"
#include "recon/runtime.h"
#include "scenarios.h"

#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace {

constexpr int kWarmupSteps = 2;  // plans, caches and the caching allocator's blocks settle in the first step

struct Benchmark {
  std::string name;  // as Google Benchmark would name it: the cost baseline's rows
  std::function<std::function<void()>()> prepare;  // builds the state, returns one training step
};

std::function<void()> seed_workload_step(recon::PipelineKind kind) {
  recon::PipelineOptions pipeline;
  pipeline.kind = kind;
  auto trainer = std::make_shared<perf::TrainerAtSample>(perf::seed_workload_trainer(perf::seed_workload(512), pipeline));
  return [trainer] { trainer->step(); };
}

// The default settings' step on the dense scenario: the newest of 31 sub-apertures plus one replayed earlier one.
std::function<void()> measured_data_step(recon::PipelineKind kind) {
  auto trainer = std::make_shared<perf::TrainerAtSample>(perf::default_settings_trainer("dense", kind, 30));
  return [trainer] { trainer->step(); };
}

const std::vector<Benchmark>& benchmarks() {
  static const std::vector<Benchmark> all = {
      {"BM_TrainStep_Reference/n:512", [] { return seed_workload_step(recon::PipelineKind::reference); }},
      {"BM_TrainStep_Optimized/n:512", [] { return seed_workload_step(recon::PipelineKind::optimized); }},
      {"BM_MeasuredDataStep_Reference/dense", [] { return measured_data_step(recon::PipelineKind::reference); }},
      {"BM_MeasuredDataStep_Optimized/dense", [] { return measured_data_step(recon::PipelineKind::optimized); }},
  };
  return all;
}

int usage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--steps K (measured steps per benchmark, 1..100; default 1)] [--only TEXT (benchmarks whose name "
               "contains TEXT)] [--list]\n",
               program);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 1;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
      continue;
    }
    if (std::strcmp(argv[i], "--list") == 0) {
      for (const auto& b : benchmarks()) std::printf("%s\n", b.name.c_str());
      return 0;
    }
    if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      char* end = nullptr;
      const long k = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || k < 1 || k > 100) return usage(argv[0]);
      steps = static_cast<int>(k);
      continue;
    }
    return usage(argv[0]);
  }
  recon::set_threads(1);
  const auto info = recon::runtime_info();
  std::printf("context threads %lld\ncontext torch_version %s\ncontext isa %s\ncontext blas_kernels %s\ncontext measured_steps %d\n",
              static_cast<long long>(info.threads), info.torch_version.c_str(), info.cpu_capability.c_str(),
              info.blas_kernels.c_str(), steps);
  for (const auto& b : benchmarks()) {
    if (b.name.find(only) == std::string::npos) continue;
    auto step = b.prepare();
    for (int i = 0; i < kWarmupSteps; ++i) step();
    CALLGRIND_START_INSTRUMENTATION;
    step();  // warms the cache simulation; not counted
    for (int i = 0; i < steps; ++i) {
      CALLGRIND_ZERO_STATS;
      step();
      CALLGRIND_DUMP_STATS_AT(b.name.c_str());
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    std::printf("measured %s (%d steps)\n", b.name.c_str(), steps);
    std::fflush(stdout);
  }
  return 0;
}
