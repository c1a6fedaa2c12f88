#pragma once
// The optimized pipeline's physics and L1 loss as one autograd node with an analytic adjoint, on FFTW row passes.
#include <ATen/Tensor.h>

#include <cstdint>
#include <memory>

namespace recon::detail {

/// Everything constant during one sample, in FFT order (DC at index 0): spectrum rows k, columns j.
struct FusedPhysicsSetup {
  int64_t grid = 0;             ///< N
  bool first = true;            ///< no old row: the old loss equals the new one
  at::Tensor old_mask;          ///< [N, N] float32, cumulative pupil [k, j] (undefined when first)
  at::Tensor old_target;        ///< [N, N] float32
  double old_normaliser = 1.0;  ///< the row's L1 loss is Σ|a − t| / (N² · normaliser)
  at::Tensor patch_rows;        ///< [h] int64: FFT-order rows k of the new disc's bounding box
  at::Tensor patch_cols;        ///< [w] int64: FFT-order columns j
  at::Tensor patch_mask;        ///< [h, w] float32: the new pupil on that box
  at::Tensor new_mask;          ///< [N, N] float32: the new pupil on the whole grid (the CUDA node's full transforms)
  at::Tensor new_target;        ///< [N, N] float32
  double new_normaliser = 1.0;
};

/// The per-sample state of the fused step: transposed pupils, buffers, and the residuals the last forward left for
/// its backward. One instance per sample; not shareable between threads.
class FusedL1Physics;

/// Builds the fused step for one sample (copies what it needs from `setup`).
std::shared_ptr<FusedL1Physics> make_fused_l1_physics(const FusedPhysicsSetup& setup);

/// Returns [2] float32: (old-row loss, new-row loss) of the object box `object` ([S, S] float32 at rows and
/// columns [offset, offset + S) of the N × N grid; requires grad or not). Forward: one pruned real-input spectrum,
/// the old row's inverse on the rows its pupil occupies, the new row's on the disc's box moved to the origin (a phase
/// ramp in the image: the modulus is unchanged); backward: the adjoint of each row, summed, then the adjoint of the
/// pruned forward transform evaluated on the box only. Same sums as the autograd graph, far fewer passes.
/// Contract: the backward of a result must run before the next call on the same `physics` (the residuals live in
/// it); a stale backward fails with an error instead of returning a wrong gradient.
at::Tensor fused_l1_physics(const at::Tensor& object, int64_t offset, const std::shared_ptr<FusedL1Physics>& physics);

}  // namespace recon::detail
