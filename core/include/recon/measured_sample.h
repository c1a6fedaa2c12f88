#pragma once
/// One progressive sample: what it is fitted to (SampleSetup), and what every part of a step reads of it, derived once
/// (MeasuredSample).
#include "recon/aperture.h"
#include "recon/losses.h"
#include "recon/noise.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <vector>

namespace recon {

/// What one progressive sample is fitted to.
struct SampleSetup {
  at::Tensor ground_truth;               ///< [N, N] float32 amplitude
  at::Tensor previous_reconstruction;    ///< [N, N] float32; ignored when `first`
  std::vector<Center> previous_centers;  ///< the cumulative mask is the union of these discs
  Center center;                         ///< the new sub-aperture
  double radius = 20.0;
  bool first = true;                     ///< the first sample has no "old" row (old = new)
  int64_t index = 0;                     ///< sample index, selects the noise stream
  LossOptions loss;
  NoiseOptions noise;
};

/// A sample's geometry and measurement, derived from its setup once and then only read: the new sub-aperture's disc
/// (drawn once), the rows and columns it occupies, the union of the earlier samples' discs (PRISM's cumulative mask)
/// and the measurement the new row fits. The trainer builds one per sample, keeping the union from sample to sample as
/// PRISM does (its cumulative mask grows by each disc once the sample ends); the objectives, the sample's learning
/// rate and the initialisation's target read it. Copies share the tensors.
/// Example: MeasuredSample sample(setup); auto objective = make_objective(sample, plan);
class MeasuredSample {
 public:
  /// The union of the earlier discs drawn from `setup.previous_centers`: what a caller outside the trainer passes.
  explicit MeasuredSample(const SampleSetup& setup);
  /// `earlier`: the union of the earlier samples' discs, bool [N, N] in centred layout on the ground truth's device
  /// (kept by the caller, e.g. the last sample's coverage_after()); ignored, and may be undefined, when `setup.first`.
  /// `setup.previous_centers` is not read. Throws std::invalid_argument for a ground truth that is not [N, N], a
  /// radius outside recon/limits.h, and, after the first sample, an `earlier` of another shape, type or device or a
  /// previous reconstruction that is not [N, N].
  MeasuredSample(const SampleSetup& setup, const at::Tensor& earlier);

  const SampleSetup& setup() const { return setup_; }
  int64_t grid() const { return setup_.ground_truth.size(-1); }
  /// Bool [N, N], centred layout: disc_mask(grid(), center, radius) on the ground truth's device.
  const at::Tensor& disc() const { return disc_; }
  /// The rows and columns disc() occupies: disc_bounding_box(grid(), center, radius).
  const PixelBox& disc_box() const { return disc_box_; }
  /// Bool [N, N], centred: the union of the earlier samples' discs; undefined for the first sample.
  const at::Tensor& earlier() const { return earlier_; }
  /// The union with this sample's disc: the next sample's earlier(). A new tensor: neither sample's is changed.
  at::Tensor coverage_after() const;
  /// The fraction of disc()'s pixels inside earlier(); 0 for the first sample.
  double covered() const;
  /// What the new row fits: the ground truth's amplitude through disc() (the reference operator, measure_amplitude),
  /// with the sample's measurement noise; [N, N] float32 in the reference layout.
  const at::Tensor& target() const { return target_; }
  /// The same measurement on its own: the first-sample form (no earlier discs, no previous reconstruction), sharing
  /// the disc and the target. What a measured-data row and a multi-start trial fit.
  MeasuredSample alone() const;

 private:
  SampleSetup setup_;
  at::Tensor disc_;
  PixelBox disc_box_;
  at::Tensor earlier_;
  at::Tensor target_;
};

}  // namespace recon
