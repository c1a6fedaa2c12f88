#include "recon/measured_sample.h"

#include "recon/limits.h"
#include "recon/measurement.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

namespace recon {
namespace {

const SampleSetup& checked(const SampleSetup& s) {
  if (!s.ground_truth.defined() || s.ground_truth.dim() != 2 || s.ground_truth.size(0) != s.ground_truth.size(1)) {
    throw std::invalid_argument("SampleSetup::ground_truth must be [N, N]");
  }
  if (const auto why = radius_refusal(s.radius, s.ground_truth.size(-1)); !why.empty()) {
    throw std::invalid_argument("SampleSetup::radius " + why);
  }
  return s;
}

at::Tensor earlier_of(const SampleSetup& s) {
  return s.first ? at::Tensor() : union_mask(s.ground_truth.size(-1), s.previous_centers, s.radius, s.ground_truth.device());
}

}  // namespace

MeasuredSample::MeasuredSample(const SampleSetup& setup) : MeasuredSample(setup, earlier_of(checked(setup))) {}

MeasuredSample::MeasuredSample(const SampleSetup& setup, const at::Tensor& earlier) : setup_(checked(setup)) {
  const int64_t n = grid();
  const auto device = setup_.ground_truth.device();
  setup_.previous_centers.clear();  // earlier() is the union; the centres it was drawn from are not kept
  disc_ = disc_mask(n, setup_.center, setup_.radius, device);
  disc_box_ = disc_bounding_box(n, setup_.center, setup_.radius);
  if (!setup_.first) {
    if (!earlier.defined() || earlier.scalar_type() != at::kBool || earlier.sizes() != disc_.sizes() || earlier.device() != device) {
      throw std::invalid_argument("MeasuredSample: the earlier discs' union must be a bool [" + std::to_string(n) + ", " +
                                  std::to_string(n) + "] mask on the ground truth's device");
    }
    const auto& previous = setup_.previous_reconstruction;
    if (!previous.defined() || previous.dim() != 2 || previous.size(0) != n || previous.size(1) != n) {
      throw std::invalid_argument("SampleSetup::previous_reconstruction must be [" + std::to_string(n) + ", " + std::to_string(n) +
                                  "] for a sample after the first");
    }
    earlier_ = earlier;
  }
  target_ = add_measurement_noise(measure_amplitude(setup_.ground_truth, disc_), setup_.noise, static_cast<uint64_t>(setup_.index));
}

at::Tensor MeasuredSample::coverage_after() const { return earlier_.defined() ? earlier_.logical_or(disc_) : disc_.clone(); }

double MeasuredSample::covered() const {
  if (!earlier_.defined()) return 0.0;
  const double area = disc_.sum().item<double>();
  return area > 0.0 ? disc_.logical_and(earlier_).sum().item<double>() / area : 0.0;
}

MeasuredSample MeasuredSample::alone() const {
  MeasuredSample single = *this;
  single.setup_.first = true;
  single.setup_.previous_reconstruction = at::Tensor();
  single.earlier_ = at::Tensor();
  return single;
}

}  // namespace recon
