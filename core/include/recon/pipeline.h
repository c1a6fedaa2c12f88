#pragma once
/// The two pipelines of one algorithm: how the loss of a training step is computed.
#include "recon/aperture.h"
#include "recon/decoder.h"
#include "recon/losses.h"
#include "recon/noise.h"
#include "recon/optimizer.h"

#include <ATen/Tensor.h>

#include <memory>
#include <string>
#include <vector>

namespace recon {

enum class PipelineKind {
  reference,  ///< PRISM's computation: two full centred spectra, masks and normalisers rebuilt every step
  optimized,  ///< the same mathematics with the switches below
};

PipelineKind parse_pipeline_kind(const std::string& name);  ///< throws std::invalid_argument
std::string to_string(PipelineKind kind);

/// Each optimisation of the optimized pipeline, separately switchable for ablation. All are exact: they change
/// rounding only (the loss is invariant to a permutation shared by prediction and target).
struct OptimizationSwitches {
  bool precompute_sample = true;   ///< masks, targets and normalisers built once per sample, not per step
  bool shared_spectrum = true;     ///< one spectrum of the output feeds both rows; the two inverses run batched
  bool fold_shifts = true;         ///< no fftshift/flip copies: targets are permuted once into FFT order
  bool pruned_forward = true;      ///< the forward FFT transforms only the S rows of the object box
  bool pruned_inverse = true;      ///< the new row's inverse FFT runs on the disc's bounding box only
  bool fused_physics = true;       ///< physics and L1 loss as one node on FFTW row passes with an analytic adjoint
                                   ///< (needs the four switches above and the L1 loss)
  bool matvec_first_layer = true;  ///< the decoder's first layer as a matrix-vector product
  bool subpixel_upsampling = false; ///< stride-2 transposed convolutions as conv + pixel shuffle (measured slower: off)
  bool blas_upsampling = true;  ///< stride-2 transposed convolutions on BLAS directly, without LibTorch's col2im
  bool fused_batchnorm_relu = true;  ///< each BatchNorm and its ReLU as one node with its own loops
  bool small_channel_conv = true;   ///< the decoder's ≤ 8-channel 3×3 convolutions run a direct kernel
  bool fused_adam = true;          ///< Adam as one loop per parameter, gradients released instead of zeroed
  bool factored_first_layer_grad = true;  ///< the first layer's rank-one weight gradient reaches Adam as its two
                                          ///< factors, never as an 8 MB tensor (needs matvec_first_layer)
  bool caching_allocator = true;  ///< large step temporaries reuse cached blocks instead of fresh pages (takes effect
                                  ///< inside a PipelineScope)

  static OptimizationSwitches none();  ///< every switch off: the optimized pipeline degenerates to plain ops
  /// Names of the switches, in ablation order, and access by name (throws std::invalid_argument).
  static const std::vector<std::string>& names();
  bool& by_name(const std::string& name);
};

struct PipelineOptions {
  PipelineKind kind = PipelineKind::optimized;
  OptimizationSwitches switches;
};

/// Sets the decoder's own switches (matvec_first_layer, subpixel_upsampling, blas_upsampling, fused_batchnorm_relu,
/// small_channel_conv,
/// factored_first_layer_gradient) from the pipeline: on for the optimized pipeline as its switches say, all off for
/// the reference.
void configure_decoder(DecoderOptions& decoder, const PipelineOptions& pipeline);

/// Process-wide resources a pipeline uses while it runs: for the optimized pipeline with caching_allocator on, a
/// caching CPU allocator (LibTorch has one CPU allocator per process, so this is a scope, not an option of a call).
/// Hold one around a reconstruction or a benchmark loop; the reference pipeline's scope does nothing.
class PipelineScope {
 public:
  explicit PipelineScope(const PipelineOptions& pipeline);

 private:
  std::shared_ptr<void> resources_;
};

/// Adam over the decoder's parameters for this pipeline: the fused loop when the optimized pipeline's fused_adam
/// switch is on, else LibTorch's; either way the decoder's factored gradient, if any, is taken into account.
std::unique_ptr<StepOptimizer> make_optimizer(const PipelineOptions& pipeline, ProgressiveDecoder& decoder, double lr);

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

/// The two row losses of one step (0-dim tensors; `old_row` aliases `new_row` for the first sample).
struct LossPair {
  at::Tensor old_row;
  at::Tensor new_row;
};

/// The loss of one progressive sample as a function of the decoder's output. Built once per sample by
/// make_objective(); may precompute whatever is constant during the sample.
class SampleObjective {
 public:
  virtual ~SampleObjective() = default;
  /// Row losses of an output whose object box is `object` ([1, 1, S, S] float32, placed at offset (N − S)/2 on
  /// the N grid, zero elsewhere — what ProgressiveDecoder::forward_object() returns), with the autograd graph.
  virtual LossPair operator()(const at::Tensor& object) = 0;
  /// Convenience: runs the decoder forward and returns the loss of its output.
  LossPair operator()(ProgressiveDecoderImpl& decoder) { return (*this)(decoder.forward_object()); }
};

std::unique_ptr<SampleObjective> make_objective(const SampleSetup& setup, const PipelineOptions& options);

/// The measured-data loss of a progressive step: the newest sub-aperture's row plus the rows of `replayed_per_step`
/// earlier sub-apertures taken in round robin, each fitted to its own measurement. Every row is a single-pupil
/// objective of `pipeline` (the first-sample form of make_objective), built once when its sub-aperture is added.
/// Example: MeasuredDataObjective rows(pipeline, 1); rows.add(setup_0); … rows.add(setup_k); auto l = rows(*decoder);
class MeasuredDataObjective {
 public:
  MeasuredDataObjective(PipelineOptions pipeline, int64_t replayed_per_step);
  /// A newly measured sub-aperture (its center, radius, ground truth, index, loss and noise; `first`,
  /// `previous_centers` and `previous_reconstruction` are ignored). It becomes the newest row.
  void add(SampleSetup setup);
  /// new_row: the newest sub-aperture's loss; old_row: the sum of this step's replayed rows (aliasing new_row while
  /// there is no earlier sub-aperture, as PRISM's first sample does). Advances the round-robin cursor.
  LossPair operator()(ProgressiveDecoderImpl& decoder);
  int64_t size() const { return static_cast<int64_t>(rows_.size()); }

 private:
  PipelineOptions pipeline_;
  int64_t replayed_per_step_;
  std::vector<std::unique_ptr<SampleObjective>> rows_;
  int64_t cursor_ = 0;
};

}  // namespace recon
