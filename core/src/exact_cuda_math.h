#pragma once
// Float32 on CUDA kept float32. LibTorch lets cuDNN convolutions run in TF32 by default (10-bit mantissa products),
// which would make the GPU's reference pipeline a different computation from the CPU's; and cuDNN may pick
// non-deterministic algorithms or time candidates on first use. Inside a scope: TF32 off for cuBLAS and cuDNN, cuDNN
// deterministic, its autotuner off. The flags are process-wide in LibTorch; the scope restores the values it found.
// Nestable, not thread-safe (like the flags themselves).
namespace recon::detail {

class ExactCudaMathScope {
 public:
  ExactCudaMathScope();
  ~ExactCudaMathScope();
  ExactCudaMathScope(const ExactCudaMathScope&) = delete;
  ExactCudaMathScope& operator=(const ExactCudaMathScope&) = delete;

 private:
  bool tf32_cublas_, tf32_cudnn_, cudnn_deterministic_, cudnn_benchmark_;
};

}  // namespace recon::detail
