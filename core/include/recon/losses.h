#pragma once
/// Per-row losses between a predicted measurement and its target.
#include "recon/choices.h"

#include <ATen/Tensor.h>

#include <string>

namespace recon {


/// Example: LossOptions{}.kind = LossKind::composite, with weight_l1 0.7 and weight_ssim 0.3.
struct LossOptions {
  LossKind kind = LossKind::l1;
  bool normalize = true;  ///< divide L1/L2 by the loss of an all-zero prediction (+1e-8)
  double weight_l1 = 0.7;
  double weight_ssim = 0.3;
};

/// The denominator that normalises an L1/L2 row loss: mean|t| (L1) or mean t² (L2), plus 1e-8; 1 otherwise.
/// Constant per sample, so pipelines may compute it once. Returns a 0-dim tensor.
at::Tensor loss_normaliser(const at::Tensor& target, const LossOptions& options);

/// Whether the loss is a mean over pixels of a function of (prediction, target) at that pixel alone (L1, L2), and so
/// unchanged when one permutation of the pixels is applied to prediction and target alike. The SSIM-based losses
/// compare neighbourhoods (windows, padding at the borders) and are not.
bool is_pixelwise(LossKind kind);

/// Loss of one row. `prediction`, `target`: [N, N] (or [1, 1, N, N]); `normaliser` from loss_normaliser().
/// Returns a 0-dim tensor, differentiable in `prediction`.
at::Tensor row_loss(const at::Tensor& prediction, const at::Tensor& target, const at::Tensor& normaliser,
                    const LossOptions& options);

}  // namespace recon
