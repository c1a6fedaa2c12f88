#include "exact_cuda_math.h"

#include <ATen/Context.h>

namespace recon::detail {
namespace {

// The flags as the first open scope found them, and how many scopes are open.
struct SavedFlags {
  bool tf32_cublas = false, tf32_cudnn = false, cudnn_deterministic = false, cudnn_benchmark = false;
  int open = 0;
};
SavedFlags& saved() {
  static SavedFlags flags;
  return flags;
}

}  // namespace

ExactCudaMathScope::ExactCudaMathScope() {
  auto& context = at::globalContext();
  auto& s = saved();
  if (s.open++ == 0) {
    s.tf32_cublas = context.allowTF32CuBLAS();
    s.tf32_cudnn = context.allowTF32CuDNN();
    s.cudnn_deterministic = context.deterministicCuDNN();
    s.cudnn_benchmark = context.benchmarkCuDNN();
  }
  context.setAllowTF32CuBLAS(false);
  context.setAllowTF32CuDNN(false);
  context.setDeterministicCuDNN(true);
  context.setBenchmarkCuDNN(false);
}

ExactCudaMathScope::~ExactCudaMathScope() {
  auto& s = saved();
  if (--s.open > 0) return;  // another scope still runs on exact float32
  auto& context = at::globalContext();
  context.setAllowTF32CuBLAS(s.tf32_cublas);
  context.setAllowTF32CuDNN(s.tf32_cudnn);
  context.setDeterministicCuDNN(s.cudnn_deterministic);
  context.setBenchmarkCuDNN(s.cudnn_benchmark);
}

}  // namespace recon::detail
