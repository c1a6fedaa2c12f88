#pragma once
// The fused physics and L1 loss on a CUDA device: the node fused_physics.h describes, on the optimized pipeline's own
// kernels (core/cuda/pipeline_kernels.h). One forward transform of the grid, both rows' inverses as one batched cuFFT
// call, the L1 residual with per-block sums and a final sum; backward: both rows' adjoint transforms batched,
// combined, one inverse. Whole-grid transforms rather than the CPU node's row pruning, because fewer launches count
// for more than fewer flops at N ≤ 1024 on the GPUs measured
// (docs/decisions/2026-11-27-whole-grid-transforms-on-cuda.md).
#include "fused_physics.h"

namespace recon::detail {

/// The per-sample state of the fused step on the device: pupils, targets and scales (the residuals a forward leaves
/// for its backward travel in its autograd node). One instance per sample; not shareable between threads.
class FusedL1PhysicsCuda;

/// Builds the fused step for one sample on the device its targets are on (uses old_mask, old_target, new_mask,
/// new_target and the normalisers of `setup`; not the patch fields).
std::shared_ptr<FusedL1PhysicsCuda> make_fused_l1_physics_cuda(const FusedPhysicsSetup& setup);

/// As fused_l1_physics: [2] float32 (old-row loss, new-row loss) of the box `object` ([S, S] float32 on the device)
/// placed at (offset, offset), with the same contract on backward.
at::Tensor fused_l1_physics_cuda(const at::Tensor& object, int64_t offset, const std::shared_ptr<FusedL1PhysicsCuda>& physics);

}  // namespace recon::detail
