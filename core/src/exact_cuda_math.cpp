#include "exact_cuda_math.h"

#include <ATen/Context.h>

namespace recon::detail {

ExactCudaMathScope::ExactCudaMathScope() {
  auto& context = at::globalContext();
  tf32_cublas_ = context.allowTF32CuBLAS();
  tf32_cudnn_ = context.allowTF32CuDNN();
  cudnn_deterministic_ = context.deterministicCuDNN();
  cudnn_benchmark_ = context.benchmarkCuDNN();
  context.setAllowTF32CuBLAS(false);
  context.setAllowTF32CuDNN(false);
  context.setDeterministicCuDNN(true);
  context.setBenchmarkCuDNN(false);
}

ExactCudaMathScope::~ExactCudaMathScope() {
  auto& context = at::globalContext();
  context.setAllowTF32CuBLAS(tf32_cublas_);
  context.setAllowTF32CuDNN(tf32_cudnn_);
  context.setDeterministicCuDNN(cudnn_deterministic_);
  context.setBenchmarkCuDNN(cudnn_benchmark_);
}

}  // namespace recon::detail
