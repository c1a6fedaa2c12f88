#pragma once
// Whether this core was compiled with its own CUDA kernels (nvcc found: core/cuda/pipeline_kernels.cu), whose interface
// (recon::cuda::…, plain C++) every build can include. Without them the same functions are defined to throw, and the
// execution plan (recon/pipeline.h) turns off the switches that would call them, so none is reached.
#include "pipeline_kernels.h"

namespace recon::detail {

#if defined(RECON_OWN_CUDA_KERNELS)
inline constexpr bool kOwnCudaKernels = true;
#else
inline constexpr bool kOwnCudaKernels = false;
#endif

}  // namespace recon::detail
