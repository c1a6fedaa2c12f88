#pragma once
/// The two pipelines of one algorithm: how the loss of a training step is computed.
#include "recon/choices.h"
#include "recon/aperture.h"
#include "recon/decoder.h"
#include "recon/losses.h"
#include "recon/measured_sample.h"
#include "recon/noise.h"
#include "recon/optimization_switches.h"
#include "recon/optimizer.h"

#include <ATen/Tensor.h>
#include <c10/core/Device.h>

#include <memory>
#include <string>
#include <vector>

namespace recon {


struct PipelineOptions {
  PipelineKind kind = PipelineKind::optimized;
  OptimizationSwitches switches;
  ComputeDevice device = ComputeDevice::cpu;
};

/// A pipeline resolved once into what runs: for the optimized pipeline its switches, validated against the switch
/// table's needs; for the reference pipeline every switch off; and the device everything runs on. The decoder,
/// objective and optimizer factories and the PipelineScope take a plan; a PipelineOptions converts implicitly, so a
/// caller that passes one is resolved there.
/// Example: ExecutionPlan plan(PipelineOptions{}); make_objective(setup, plan);
class ExecutionPlan {
 public:
  /// Throws std::invalid_argument naming both switches when a switch that is on needs one that is off (e.g.
  /// fused_physics with pruned_forward off): turn the dependent off too (OptimizationSwitches::without does).
  /// On cuda the switches are those that run there (OptimizationSwitches::on_cuda: the CPU-only kernels and the
  /// caching CPU allocator off, and the own CUDA kernels too in a core compiled without nvcc); switches() says which.
  /// Throws std::invalid_argument for cuda when LibTorch sees no CUDA device (a CPU-only LibTorch, or no GPU or driver).
  ExecutionPlan(const PipelineOptions& options);  // NOLINT(google-explicit-constructor): see above
  PipelineKind kind() const { return kind_; }
  const OptimizationSwitches& switches() const { return switches_; }  ///< as run: all off for the reference pipeline
  ComputeDevice device() const { return device_; }
  /// LibTorch's name of device(): where the trainer puts the decoder, the ground truth and every step tensor.
  c10::Device torch_device() const;

 private:
  PipelineKind kind_;
  OptimizationSwitches switches_;
  ComputeDevice device_;
};

/// Hands the plan's switches to the decoder (DecoderOptions::kernels, which reads its own among them). They are the
/// plan's, not the caller's: reconstruct() applies its plan to the decoder it is given, whatever it held before.
void configure_decoder(DecoderOptions& decoder, const ExecutionPlan& plan);

/// Process-wide resources and settings a pipeline uses while it runs (LibTorch keeps one CPU allocator and one set of
/// math flags per process, so this is a scope, not an option of a call): for the optimized pipeline with
/// caching_allocator on, a caching CPU allocator; on cuda, float32 kept exact (TF32 off for cuBLAS and cuDNN) and
/// cuDNN's deterministic algorithms, with the previous flags restored when the scope ends. Hold one around a
/// reconstruction or a benchmark loop; the reference pipeline's scope on the CPU does nothing.
class PipelineScope {
 public:
  explicit PipelineScope(const ExecutionPlan& plan);
  ~PipelineScope();  ///< releases the resources in reverse order of acquisition
  PipelineScope(PipelineScope&&) = default;

 private:
  std::vector<std::shared_ptr<void>> resources_;
};

/// Adam over the decoder's parameters for this pipeline: the fused loop when the optimized pipeline's fused_adam
/// switch is on, else LibTorch's; either way the decoder's factored gradient, if any, is taken into account.
std::unique_ptr<StepOptimizer> make_optimizer(const ExecutionPlan& plan, ProgressiveDecoder& decoder, double lr);

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

/// The objective of `sample` for `plan`'s pipeline. The optimized one reads the sample's disc, box, earlier discs and
/// target as they are; the reference one reads the earlier discs and the target (PRISM keeps its cumulative mask and
/// measures once per sample) and draws the disc again at every step, as PRISM does.
std::unique_ptr<SampleObjective> make_objective(const MeasuredSample& sample, const ExecutionPlan& plan);
/// Convenience: make_objective(MeasuredSample(setup), plan).
std::unique_ptr<SampleObjective> make_objective(const SampleSetup& setup, const ExecutionPlan& plan);

/// The measured-data loss of a progressive step: the newest sub-aperture's row plus the rows of `replayed_per_step`
/// earlier sub-apertures taken in round robin, each fitted to its own measurement. Every row is a single-pupil
/// objective of `pipeline` (the first-sample form of make_objective), built once when its sub-aperture is added.
/// Example: MeasuredDataObjective rows(pipeline, 1); rows.add(setup_0); … rows.add(setup_k); auto l = rows(*decoder);
class MeasuredDataObjective {
 public:
  MeasuredDataObjective(ExecutionPlan plan, int64_t replayed_per_step);
  /// A newly measured sub-aperture, fitted alone (sample.alone(): its disc and target, no earlier discs). It becomes
  /// the newest row.
  void add(const MeasuredSample& sample);
  /// Convenience: add(MeasuredSample(setup)) (`first`, `previous_centers` and `previous_reconstruction` are ignored).
  void add(const SampleSetup& setup);
  /// The losses of `object` (the decoder's [1, 1, S, S] object box, with its graph), which every row reads.
  /// new_row: the newest sub-aperture's loss; old_row: the sum of this step's replayed rows (aliasing new_row while
  /// there is no earlier sub-aperture, as PRISM's first sample does). Advances the round-robin cursor.
  LossPair operator()(const at::Tensor& object);
  /// Convenience: runs the decoder forward once and returns the loss of its output.
  LossPair operator()(ProgressiveDecoderImpl& decoder);
  int64_t size() const { return static_cast<int64_t>(rows_.size()); }

 private:
  ExecutionPlan plan_;
  int64_t replayed_per_step_;
  std::vector<std::unique_ptr<SampleObjective>> rows_;
  int64_t cursor_ = 0;
};

}  // namespace recon
