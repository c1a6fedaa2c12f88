#include "recon/losses.h"

#include "recon/metrics.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace recon {
namespace {
constexpr double kNormaliserEpsilon = 1e-8;  // PRISM's guard against an all-zero target row
}  // namespace

at::Tensor loss_normaliser(const at::Tensor& target, const LossOptions& o) {
  if (!o.normalize) return at::ones({}, target.options());
  if (o.kind == LossKind::l1) return target.abs().mean() + kNormaliserEpsilon;
  if (o.kind == LossKind::l2) return target.pow(2).mean() + kNormaliserEpsilon;
  return at::ones({}, target.options());
}

bool is_pixelwise(LossKind kind) {
  switch (kind) {
    case LossKind::l1:
    case LossKind::l2: return true;
    case LossKind::ssim:
    case LossKind::ms_ssim:
    case LossKind::composite: return false;
  }
  throw std::invalid_argument("is_pixelwise: unknown loss kind");
}

at::Tensor row_loss(const at::Tensor& p, const at::Tensor& t, const at::Tensor& normaliser, const LossOptions& o) {
  auto p2 = p.dim() == 2 ? p : p.view({p.size(-2), p.size(-1)});
  auto t2 = t.dim() == 2 ? t : t.view({t.size(-2), t.size(-1)});
  switch (o.kind) {
    case LossKind::l1: return (p2 - t2).abs().mean() / normaliser;
    case LossKind::l2: return (p2 - t2).pow(2).mean() / normaliser;
    case LossKind::ssim: return (1.0 - ssim(p2, t2)) / 2.0;
    case LossKind::ms_ssim: return (1.0 - ms_ssim(p2, t2)) / 2.0;
    case LossKind::composite:
      return o.weight_l1 * (p2 - t2).abs().mean() + o.weight_ssim * (1.0 - ssim(p2, t2)) / 2.0;
  }
  throw std::invalid_argument("row_loss: unknown loss kind");
}

}  // namespace recon
