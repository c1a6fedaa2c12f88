#include "fused_physics.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cmath>
#include <complex>

namespace recon::detail {
namespace {

using cfloat = std::complex<float>;

cfloat* complex_data(at::Tensor& t) { return reinterpret_cast<cfloat*>(t.data_ptr<c10::complex<float>>()); }

// Pruned forward transform: only the S rows of the object box are non-zero, so the row pass runs on those rows.
at::Tensor spectrum_of(const at::Tensor& object, int64_t n, int64_t offset) {
  const int64_t s = object.size(-1), after = n - s - offset;
  auto rows = at::fft_fft(at::constant_pad_nd(object, {offset, after}), c10::nullopt, -1, "ortho");
  return at::fft_fft(at::constant_pad_nd(rows, {0, 0, offset, after}), c10::nullopt, -2, "ortho");
}

// One row's loss and its pre-adjoint residual u = sign(|y| − t) · y/|y| / (N² d) (zero where y = 0, like
// torch's abs backward). `y` is overwritten by u.
double l1_row(at::Tensor& y, const at::Tensor& target, double normaliser) {
  const int64_t count = y.numel();
  cfloat* v = complex_data(y);
  const float* t = target.data_ptr<float>();
  const double scale = 1.0 / (static_cast<double>(count) * normaliser);
  const float fscale = static_cast<float>(scale);
  double sum = 0.0;
  // Plain sqrt instead of std::abs(complex) (hypot, which guards against overflow the amplitudes here cannot
  // reach and does not vectorise); the real and imaginary parts are scaled separately for the same reason.
  float* parts = reinterpret_cast<float*>(v);
  for (int64_t i = 0; i < count; ++i) {
    const float re = parts[2 * i], im = parts[2 * i + 1];
    // Squares summed in double: the modulus is then correctly rounded, as torch's hypot-based abs is.
    const float a = static_cast<float>(std::sqrt(static_cast<double>(re) * re + static_cast<double>(im) * im));
    const float r = a - t[i];
    sum += static_cast<double>(std::fabs(r));
    const float w = a > 0.0f ? (r > 0.0f ? fscale : (r < 0.0f ? -fscale : 0.0f)) / a : 0.0f;
    parts[2 * i] = re * w;
    parts[2 * i + 1] = im * w;
  }
  return sum * scale;
}

struct FusedPhysics : torch::autograd::Function<FusedPhysics> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& object, const FusedPhysicsSetup* s) {
    const int64_t n = s->grid;
    auto u = spectrum_of(object.detach(), n, s->offset);

    // New row: the disc's box, moved to the origin (a phase ramp in the image; the modulus is unchanged).
    auto patch = u.index_select(0, s->patch_rows).index_select(1, s->patch_cols).mul_(s->patch_mask);
    auto columns = at::fft_ifft(at::constant_pad_nd(patch, {0, 0, 0, n - patch.size(0)}), c10::nullopt, 0, "ortho");
    auto y_new = at::fft_ifft(at::constant_pad_nd(columns, {0, n - patch.size(1)}), c10::nullopt, 1, "ortho").contiguous();
    const double loss_new = l1_row(y_new, s->new_target, s->new_normaliser);

    at::Tensor y_old;
    double loss_old = loss_new;
    if (!s->first) {
      auto masked = at::view_as_complex(at::view_as_real(u).mul_(s->old_mask.unsqueeze(-1)));
      y_old = at::fft_ifft2(masked, c10::nullopt, {-2, -1}, "ortho").contiguous();
      loss_old = l1_row(y_old, s->old_target, s->old_normaliser);
    }
    ctx->saved_data["new"] = y_new;
    ctx->saved_data["old"] = s->first ? at::Tensor() : y_old;
    ctx->saved_data["setup"] = reinterpret_cast<int64_t>(s);
    ctx->saved_data["box"] = object.size(-1);
    return at::tensor({static_cast<float>(loss_old), static_cast<float>(loss_new)}, at::kFloat);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto* s = reinterpret_cast<const FusedPhysicsSetup*>(ctx->saved_data["setup"].toInt());
    const int64_t n = s->grid, box = ctx->saved_data["box"].toInt();
    const auto g = grads[0].to(at::kFloat).contiguous();
    float g_old = g.data_ptr<float>()[0], g_new = g.data_ptr<float>()[1];
    // For the first sample the old row is the new row: both losses flow into it.
    if (s->first) g_new += g_old;

    // New row: forward transform of the residual, keep the box's block, pupil, back to the box's place.
    auto u_new = ctx->saved_data["new"].toTensor();
    const int64_t h = s->patch_mask.size(0), w = s->patch_mask.size(1);
    auto block = at::fft_fft(at::fft_fft(u_new, c10::nullopt, 1, "ortho").narrow(1, 0, w), c10::nullopt, 0, "ortho").narrow(0, 0, h);
    block = block * (s->patch_mask * g_new);

    at::Tensor grad_u;
    if (!s->first) {
      auto u_old = ctx->saved_data["old"].toTensor();
      grad_u = at::fft_fft2(u_old, c10::nullopt, {-2, -1}, "ortho");
      at::view_as_real(grad_u).mul_((s->old_mask * g_old).unsqueeze(-1));
    } else {
      grad_u = at::zeros({n, n}, at::kComplexFloat);
    }
    // Scatter-add the box (rows and columns are distinct, so index_put_ with accumulate adds each once).
    auto row_index = s->patch_rows.view({h, 1}).expand({h, w});
    auto col_index = s->patch_cols.view({1, w}).expand({h, w});
    grad_u.index_put_({row_index, col_index}, block, /*accumulate=*/true);

    // Adjoint of the pruned forward transform, evaluated on the object box only.
    auto rows = at::fft_ifft(grad_u, c10::nullopt, 0, "ortho").narrow(0, s->offset, box);
    auto grad_object = at::real(at::fft_ifft(rows, c10::nullopt, 1, "ortho").narrow(1, s->offset, box)).contiguous();
    return {grad_object, torch::autograd::Variable()};
  }
};

}  // namespace

at::Tensor fused_l1_physics(const at::Tensor& object, const FusedPhysicsSetup& setup) {
  return FusedPhysics::apply(object, &setup);
}

}  // namespace recon::detail
