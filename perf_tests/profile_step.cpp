// profile_step: a Chrome trace (chrome://tracing, Perfetto) of training steps of the seed workload, recorded with
// LibTorch's legacy profiler (RecordProfile; real timestamps of every ATen operator and autograd node).
// Usage: profile_step <trace.json> [reference|optimized] [steps] [grid]
// Contract: writes only the named trace file; --help prints the usage; exit 2 with one line on bad arguments, among
// them a trace path that begins with '-' (an option mistyped, or one this program does not have, is never a file name).
#include "scenarios.h"

#include <torch/csrc/autograd/profiler_legacy.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr const char* kUsage = "usage: profile_step <trace.json> [reference|optimized] [steps] [grid]";

int usage(const char* why) {
  std::fprintf(stderr, "profile_step: %s (%s)\n", why, kUsage);
  return 2;
}

bool parse_positive(const char* text, long max, long& out) {
  char* end = nullptr;
  out = std::strtol(text, &end, 10);
  return end != text && *end == '\0' && out > 0 && out <= max;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::printf("%s\n", kUsage);
    return 0;
  }
  if (argc < 2 || argc > 5) return usage("wrong number of arguments");
  const std::string trace = argv[1];
  if (trace.empty() || trace.front() == '-') return usage("the trace path must not be empty or begin with '-'");
  recon::PipelineOptions pipeline;
  if (argc > 2) {
    const std::string kind = argv[2];
    if (kind == "reference") pipeline.kind = recon::PipelineKind::reference;
    else if (kind != "optimized") return usage("pipeline must be reference or optimized");
  }
  long steps = 20, grid = 512;
  if (argc > 3 && !parse_positive(argv[3], 100000, steps)) return usage("steps must be an integer in 1..100000");
  if (argc > 4 && (!parse_positive(argv[4], 4096, grid) || grid % 64 != 0)) return usage("grid must be a multiple of 64 up to 4096");

  const char* threads = std::getenv("PERFGATE_THREADS");  // one unless the caller says otherwise, as every suite
  recon::set_threads(threads != nullptr ? std::atoll(threads) : 1);
  const auto w = perf::seed_workload(grid);
  auto trainer = perf::seed_workload_trainer(w, pipeline);
  for (int i = 0; i < 3; ++i) trainer.step();  // warm-up: plans, allocator
  try {
    torch::autograd::profiler::RecordProfile guard(trace);
    for (long i = 0; i < steps; ++i) trainer.step();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "profile_step: cannot write %s: %s\n", trace.c_str(), e.what());
    return 2;
  }
  std::printf("profile_step: %ld steps of the %s pipeline at N=%ld traced into %s\n", steps,
              pipeline.kind == recon::PipelineKind::reference ? "reference" : "optimized", grid, trace.c_str());
  return 0;
}
