#pragma once
// The optimized pipeline's physics and L1 loss as one autograd node with an analytic adjoint.
#include <ATen/Tensor.h>

#include <cstdint>

namespace recon::detail {

/// Everything constant during one sample, in FFT order (DC at index 0).
struct FusedPhysicsSetup {
  int64_t grid = 0;             ///< N
  int64_t offset = 0;           ///< row/column where the S×S object box starts
  bool first = true;            ///< no old row: the old loss equals the new one
  at::Tensor old_mask;          ///< [N, N] float32, cumulative pupil (undefined when first)
  at::Tensor old_target;        ///< [N, N] float32
  double old_normaliser = 1.0;  ///< the row's L1 loss is Σ|a − t| / (N² · normaliser)
  at::Tensor patch_rows;        ///< [h] int64: FFT-order rows of the new disc's bounding box
  at::Tensor patch_cols;        ///< [w] int64
  at::Tensor patch_mask;        ///< [h, w] float32: the new pupil on that box
  at::Tensor new_target;        ///< [N, N] float32
  double new_normaliser = 1.0;
};

/// Returns [2] float32: (old-row loss, new-row loss) of the object box `object` ([S, S] float32, requires grad or
/// not). Forward: one pruned spectrum, the old row's inverse on the full grid and the new row's on the disc's box;
/// backward: the adjoint A^H = IFFT·M·FFT of each row (A is self-adjoint for a real pupil), summed, then the adjoint
/// of the pruned forward transform restricted to the box. Same sums as the autograd graph, fewer passes.
at::Tensor fused_l1_physics(const at::Tensor& object, const FusedPhysicsSetup& setup);

}  // namespace recon::detail
