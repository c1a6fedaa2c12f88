#include "optimized_objective.h"

#include "fused_physics.h"
#include "fused_physics_cuda.h"

#include "recon/fourier.h"
#include "recon/measurement.h"
#include "recon/object_box.h"

#include <ATen/ATen.h>

namespace recon::detail {
namespace {

const std::vector<int64_t> kLastTwoDims = {-2, -1};

// In FFT order (DC at index 0) the reference operator becomes |ifft2(fft2(x) · ifftshift(M))|, which equals the
// reference measurement rolled by +1 on both axes (prism-core.md §1.3: flip(|Fc(V)|) = roll(|Fc⁻¹(V)|, −1), and
// the centring shifts cancel for even N). A pixel-wise loss (is_pixelwise) is invariant to a permutation applied to
// prediction and target alike, so rolling its targets once per sample replaces every per-step shift and flip. The
// SSIM-based losses see the roll (their windows meet the borders elsewhere), so their predictions are rolled back.
at::Tensor to_fft_order(const at::Tensor& reference_layout) { return at::roll(reference_layout, {1, 1}, {-2, -1}); }
at::Tensor to_reference_layout(const at::Tensor& fft_order) { return at::roll(fft_order, {-1, -1}, {-2, -1}); }

class OptimizedObjective final : public SampleObjective {
 public:
  OptimizedObjective(const MeasuredSample& sample, const OptimizationSwitches& sw)
      : setup_(sample.setup()), switches_(sw), disc_box_(sample.disc_box()) {
    const auto& s = setup_;
    n_ = sample.grid();
    device_ = s.ground_truth.device();  // every tensor of the objective lives where the ground truth does
    // The sample's target is measured with the reference operator (once per sample, for both pipelines), so the
    // noise, when enabled, lands on the same physical pixels as in the reference pipeline.
    auto new_target = sample.target();
    cumulative_mask_ = sample.earlier();
    auto old_target = s.first ? new_target : measure_amplitude(s.previous_reconstruction.to(at::kComplexFloat), cumulative_mask_);
    if (fold_targets()) {
      new_target = to_fft_order(new_target);
      old_target = s.first ? new_target : to_fft_order(old_target);
    }
    new_target_ = new_target.contiguous();
    old_target_ = old_target.contiguous();
    if (switches_.precompute_sample) {
      new_mask_ = layout(sample.disc());
      old_mask_ = build_old_mask();
      new_normaliser_ = loss_normaliser(new_target_, s.loss);
      old_normaliser_ = loss_normaliser(old_target_, s.loss);
      if (use_pruned_inverse()) prepare_patch(sample.disc());
      if (use_fused()) prepare_fused();
    }
  }

  using SampleObjective::operator();
  LossPair operator()(const at::Tensor& decoder_output) override {
    const auto object = decoder_output;
    if (use_fused()) {
      const int64_t s = object.size(-1);
      const int64_t offset = object_box(n_, s).before;
      auto rows = fused_cuda_ ? fused_l1_physics_cuda(object.view({s, s}), offset, fused_cuda_)
                              : fused_l1_physics(object.view({s, s}), offset, fused_);
      return {rows[0], rows[1]};
    }
    const bool per_step = !switches_.precompute_sample;
    if (per_step) {  // as the reference pipeline does: the disc drawn again, its masks laid out again
      const auto disc = disc_mask(n_, setup_.center, setup_.radius, device_);
      new_mask_ = layout(disc);
      old_mask_ = build_old_mask();
      if (use_pruned_inverse()) prepare_patch(disc);
    }
    auto [predicted_old, predicted_new] = predict(object);
    if (switches_.fold_shifts && !fold_targets()) {
      predicted_new = to_reference_layout(predicted_new);
      predicted_old = setup_.first ? predicted_new : to_reference_layout(predicted_old);
    }
    auto new_norm = per_step ? loss_normaliser(new_target_, setup_.loss) : new_normaliser_;
    auto new_row = row_loss(predicted_new, new_target_, new_norm, setup_.loss);
    if (setup_.first) return {new_row, new_row};
    auto old_norm = per_step ? loss_normaliser(old_target_, setup_.loss) : old_normaliser_;
    return {row_loss(predicted_old, old_target_, old_norm, setup_.loss), new_row};
  }

 private:
  // The switches come from an ExecutionPlan, which has checked the table's needs (pruned_inverse on fold_shifts; the
  // fused node, which implements exactly the pruned, shared-spectrum, precomputed path, on those four).
  bool use_pruned_inverse() const { return switches_.pruned_inverse; }
  // fold_shifts predicts in FFT order; the targets follow when the loss cannot tell the layouts apart.
  bool fold_targets() const { return switches_.fold_shifts && is_pixelwise(setup_.loss.kind); }
  // The fused node implements the L1 loss only; other losses take the unfused path.
  bool use_fused() const { return switches_.fused_physics && setup_.loss.kind == LossKind::l1; }

  void prepare_fused() {
    FusedPhysicsSetup f;
    f.grid = n_;
    f.first = setup_.first;
    f.old_mask = old_mask_;
    f.old_target = old_target_;
    f.old_normaliser = old_normaliser_.item<double>();  // first sample: the new row's
    f.patch_rows = patch_rows_;
    f.patch_cols = patch_cols_;
    f.patch_mask = patch_mask_;
    f.new_target = new_target_;
    f.new_normaliser = new_normaliser_.item<double>();
    f.new_mask = new_mask_;
    if (device_.is_cuda()) {
      fused_cuda_ = make_fused_l1_physics_cuda(f);
      // The node holds its own pupils and targets; a sample kept for replay (measured-data memory) keeps one copy.
      new_mask_ = old_mask_ = new_target_ = old_target_ = patch_mask_ = at::Tensor();
    } else {
      fused_ = make_fused_l1_physics(f);
    }
  }

  at::Tensor layout(const at::Tensor& centred_mask) const {
    auto m = centred_mask.to(at::kFloat);
    return switches_.fold_shifts ? at::fft_ifftshift(m, kLastTwoDims).contiguous() : m;
  }
  at::Tensor build_old_mask() const { return setup_.first ? at::Tensor() : layout(cumulative_mask_); }

  // The disc occupies a small box of the spectrum; its rows and columns in FFT order, and the mask on the box.
  void prepare_patch(const at::Tensor& disc) {
    const auto& box = disc_box_;
    auto fft_order = [&](int64_t start, int64_t count) {
      return (at::arange(start, start + count, at::kLong) + n_ / 2).remainder(n_).to(device_);
    };
    patch_rows_ = fft_order(box.row0, box.rows());
    patch_cols_ = fft_order(box.col0, box.cols());
    patch_mask_ = disc.narrow(0, box.row0, box.rows())
                      .narrow(1, box.col0, box.cols())
                      .to(at::kFloat)
                      .contiguous();
  }

  at::Tensor full_grid(const at::Tensor& object) const {
    const auto box = object_box(n_, object.size(-1));
    return at::constant_pad_nd(object, {box.before, box.after, box.before, box.after}).view({n_, n_});
  }

  // Spectrum of the output in FFT order, [N, N] complex64.
  at::Tensor spectrum(const at::Tensor& object) const {
    if (!switches_.pruned_forward) return at::fft_fft2(full_grid(object), c10::nullopt, kLastTwoDims, "ortho");
    // Only the S rows of the object box are non-zero: transform those rows, then all columns.
    const int64_t s = object.size(-1);
    const auto box = object_box(n_, s);
    auto rows = at::fft_fft(at::constant_pad_nd(object.view({s, s}), {box.before, box.after}), c10::nullopt, -1, "ortho");
    return at::fft_fft(at::constant_pad_nd(rows, {0, 0, box.before, box.after}), c10::nullopt, -2, "ortho");
  }

  // |inverse| of the spectrum restricted to the disc's box. Moving the box to the origin multiplies the inverse by
  // a phase ramp only, so the modulus is the same pixel for pixel; the column pass runs on the box's columns only.
  at::Tensor pruned_new_row(const at::Tensor& spectrum) const {
    auto patch = spectrum.index_select(0, patch_rows_).index_select(1, patch_cols_) * patch_mask_;
    auto columns = at::fft_ifft(at::constant_pad_nd(patch, {0, 0, 0, n_ - patch.size(0)}), c10::nullopt, 0, "ortho");
    return at::abs(at::fft_ifft(at::constant_pad_nd(columns, {0, n_ - patch.size(1)}), c10::nullopt, 1, "ortho"));
  }

  std::pair<at::Tensor, at::Tensor> predict(const at::Tensor& object) {
    if (!switches_.fold_shifts) {
      auto out = full_grid(object);
      if (switches_.shared_spectrum && !setup_.first) {
        auto rows = at::flip(at::abs(fft2c(fft2c(out).unsqueeze(0) * at::stack({old_mask_, new_mask_}))), kLastTwoDims);
        return {rows[0], rows[1]};
      }
      auto predicted_new = measure_amplitude(out, new_mask_);
      return {setup_.first ? predicted_new : measure_amplitude(out, old_mask_), predicted_new};
    }
    auto u = spectrum(object);
    if (setup_.first) {
      auto predicted_new = use_pruned_inverse() ? pruned_new_row(u) : at::abs(at::fft_ifft2(u * new_mask_, c10::nullopt, kLastTwoDims, "ortho"));
      return {predicted_new, predicted_new};
    }
    auto u_old = switches_.shared_spectrum ? u : spectrum(object);
    if (use_pruned_inverse()) {
      return {at::abs(at::fft_ifft2(u_old * old_mask_, c10::nullopt, kLastTwoDims, "ortho")), pruned_new_row(u)};
    }
    if (switches_.shared_spectrum) {
      auto rows = at::abs(at::fft_ifft2(u.unsqueeze(0) * at::stack({old_mask_, new_mask_}), c10::nullopt, kLastTwoDims, "ortho"));
      return {rows[0], rows[1]};
    }
    return {at::abs(at::fft_ifft2(u_old * old_mask_, c10::nullopt, kLastTwoDims, "ortho")),
            at::abs(at::fft_ifft2(u * new_mask_, c10::nullopt, kLastTwoDims, "ortho"))};
  }

  SampleSetup setup_;
  OptimizationSwitches switches_;
  PixelBox disc_box_;  // the sample's
  int64_t n_ = 0;
  c10::Device device_ = c10::kCPU;
  at::Tensor new_target_, old_target_, new_mask_, old_mask_, new_normaliser_, old_normaliser_;
  at::Tensor patch_rows_, patch_cols_, patch_mask_;
  at::Tensor cumulative_mask_;  // bool, centred layout: the sample's earlier discs
  std::shared_ptr<FusedL1Physics> fused_;  // per-sample state of the fused step (shared with its autograd nodes)
  std::shared_ptr<FusedL1PhysicsCuda> fused_cuda_;  // the same on a CUDA device
};

}  // namespace

std::unique_ptr<SampleObjective> make_optimized_objective(const MeasuredSample& sample, const OptimizationSwitches& switches) {
  return std::make_unique<OptimizedObjective>(sample, switches);
}

}  // namespace recon::detail
