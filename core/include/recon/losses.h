#pragma once
/// Per-row losses between a predicted measurement and its target.
#include <ATen/Tensor.h>

#include <string>

namespace recon {

enum class LossKind {
  l1,         ///< mean |p − t|, normalised by mean |t| (PRISM's default)
  l2,         ///< mean (p − t)², normalised by mean t²
  ssim,       ///< (1 − SSIM(p, t)) / 2, data range 1
  ms_ssim,    ///< (1 − MS-SSIM(p, t)) / 2
  composite,  ///< weight_l1 · mean|p − t| + weight_ssim · (1 − SSIM)/2, unnormalised (PRISM's composite)
};

LossKind parse_loss_kind(const std::string& name);  ///< throws std::invalid_argument
std::string to_string(LossKind kind);

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

/// Loss of one row. `prediction`, `target`: [N, N] (or [1, 1, N, N]); `normaliser` from loss_normaliser().
/// Returns a 0-dim tensor, differentiable in `prediction`.
at::Tensor row_loss(const at::Tensor& prediction, const at::Tensor& target, const at::Tensor& normaliser,
                    const LossOptions& options);

}  // namespace recon
