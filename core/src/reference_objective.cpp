#include "reference_objective.h"

#include "recon/fourier.h"
#include "recon/measurement.h"
#include "recon/object_box.h"

#include <ATen/ATen.h>

namespace recon::detail {
namespace {

// PRISM's per-step work, without its Python overheads and without any saving it does not make itself:
// the sub-aperture mask is regenerated every step, the spectrum of the output is computed twice (once per row,
// the second time after a cast to complex), the shifts and the flip are copies, and the loss normalisers are
// recomputed from the constant targets every step. What PRISM keeps across steps is read from the sample as it
// does: the cumulative mask (its telescope's, grown by each disc once a sample ends) and the targets, measured once per
// sample (PRISM's trainer calls measure() once per sample; its measurement cache never hits in that loop, so it is
// left out).
class ReferenceObjective final : public SampleObjective {
 public:
  explicit ReferenceObjective(const MeasuredSample& sample) : setup_(sample.setup()), new_target_(sample.target()) {
    cumulative_mask_ = sample.earlier();  // undefined for the first sample, which has no old row
    // Complex of the ground truth's precision: float32 in every pipeline run; float64 where a test computes the exact
    // step as an oracle (without noise: the noise models draw and return float32).
    const auto complex = c10::toComplexType(setup_.ground_truth.scalar_type());
    old_target_ = setup_.first ? new_target_ : measure_amplitude(setup_.previous_reconstruction.to(complex), cumulative_mask_);
  }

  using SampleObjective::operator();
  LossPair operator()(const at::Tensor& object) override {
    const int64_t n = setup_.ground_truth.size(-1), s = object.size(-1);
    // PRISM's final CropPad to the grid, as ProgressiveDecoder::forward() does.
    const auto box = object_box(n, s);
    auto out = at::constant_pad_nd(object, {box.before, box.after, box.before, box.after}).view({n, n});
    auto predicted_new = measure_amplitude(out, disc_mask(n, setup_.center, setup_.radius, out.device()));
    auto new_row = row_loss(predicted_new, new_target_, loss_normaliser(new_target_, setup_.loss), setup_.loss);
    if (setup_.first) return {new_row, new_row};
    auto predicted_old = measure_amplitude(out.to(c10::toComplexType(out.scalar_type())), cumulative_mask_);
    auto old_row = row_loss(predicted_old, old_target_, loss_normaliser(old_target_, setup_.loss), setup_.loss);
    return {old_row, new_row};
  }

 private:
  SampleSetup setup_;
  at::Tensor new_target_, cumulative_mask_, old_target_;
};

}  // namespace

std::unique_ptr<SampleObjective> make_reference_objective(const MeasuredSample& sample) {
  return std::make_unique<ReferenceObjective>(sample);
}

}  // namespace recon::detail
