#pragma once
// Float32 on CUDA kept float32. LibTorch lets cuDNN convolutions run in TF32 by default (10-bit mantissa products),
// which would make the GPU's reference pipeline a different computation from the CPU's; and cuDNN may pick
// non-deterministic algorithms or time candidates on first use. Inside a scope: TF32 off for cuBLAS and cuDNN, cuDNN
// deterministic, its autotuner off. The flags are process-wide in LibTorch: the outermost of any number of scopes
// (they may end in any order) saves them, and the last one to end restores them. Not thread-safe (like the flags).
namespace recon::detail {

class ExactCudaMathScope {
 public:
  ExactCudaMathScope();
  ~ExactCudaMathScope();
  ExactCudaMathScope(const ExactCudaMathScope&) = delete;
  ExactCudaMathScope& operator=(const ExactCudaMathScope&) = delete;
};

}  // namespace recon::detail
