#include "recon/pipeline.h"

#include "caching_allocator.h"
#include "optimized_objective.h"
#include "reference_objective.h"

#include <algorithm>
#include <stdexcept>

namespace recon {

PipelineKind parse_pipeline_kind(const std::string& name) {
  if (name == "reference") return PipelineKind::reference;
  if (name == "optimized") return PipelineKind::optimized;
  throw std::invalid_argument("unknown pipeline '" + name + "' (expected reference or optimized)");
}

std::string to_string(PipelineKind kind) { return kind == PipelineKind::reference ? "reference" : "optimized"; }

OptimizationSwitches OptimizationSwitches::none() {
  OptimizationSwitches s;
  for (const auto& name : names()) s.by_name(name) = false;
  return s;
}

const std::vector<std::string>& OptimizationSwitches::names() {
  static const std::vector<std::string> kNames = {"precompute_sample", "shared_spectrum",    "fold_shifts", "pruned_forward",
                                                  "pruned_inverse",    "fused_physics", "matvec_first_layer", "subpixel_upsampling", "blas_upsampling", "fused_batchnorm_relu", "small_channel_conv", "fused_adam",
                                                  "factored_first_layer_grad", "caching_allocator"};
  return kNames;
}

bool& OptimizationSwitches::by_name(const std::string& name) {
  if (name == "precompute_sample") return precompute_sample;
  if (name == "shared_spectrum") return shared_spectrum;
  if (name == "fold_shifts") return fold_shifts;
  if (name == "pruned_forward") return pruned_forward;
  if (name == "pruned_inverse") return pruned_inverse;
  if (name == "fused_physics") return fused_physics;
  if (name == "matvec_first_layer") return matvec_first_layer;
  if (name == "subpixel_upsampling") return subpixel_upsampling;
  if (name == "blas_upsampling") return blas_upsampling;
  if (name == "fused_batchnorm_relu") return fused_batchnorm_relu;
  if (name == "small_channel_conv") return small_channel_conv;
  if (name == "fused_adam") return fused_adam;
  if (name == "factored_first_layer_grad") return factored_first_layer_grad;
  if (name == "caching_allocator") return caching_allocator;
  throw std::invalid_argument("unknown optimisation switch '" + name + "'");
}

void configure_decoder(DecoderOptions& decoder, const PipelineOptions& pipeline) {
  const bool optimized = pipeline.kind == PipelineKind::optimized;
  decoder.matvec_first_layer(optimized && pipeline.switches.matvec_first_layer);
  decoder.subpixel_upsampling(optimized && pipeline.switches.subpixel_upsampling);
  decoder.blas_upsampling(optimized && pipeline.switches.blas_upsampling);
  decoder.fused_batchnorm_relu(optimized && pipeline.switches.fused_batchnorm_relu);
  decoder.small_channel_conv(optimized && pipeline.switches.small_channel_conv);
  decoder.factored_first_layer_gradient(optimized && pipeline.switches.matvec_first_layer &&
                                        pipeline.switches.factored_first_layer_grad);
}

std::unique_ptr<StepOptimizer> make_optimizer(const PipelineOptions& pipeline, ProgressiveDecoder& decoder, double lr) {
  const bool fused = pipeline.kind == PipelineKind::optimized && pipeline.switches.fused_adam;
  std::vector<FactoredParameter> factored = {{decoder->first_layer_weight(), decoder->factored_gradient()}};
  return fused ? make_fused_adam(decoder->parameters(), lr, std::move(factored))
               : make_torch_adam(decoder->parameters(), lr, std::move(factored));
}

PipelineScope::PipelineScope(const PipelineOptions& pipeline) {
  if (pipeline.kind == PipelineKind::optimized && pipeline.switches.caching_allocator) {
    resources_ = std::make_shared<detail::CachingAllocatorScope>();
  }
}

std::unique_ptr<SampleObjective> make_objective(const SampleSetup& setup, const PipelineOptions& options) {
  if (options.kind == PipelineKind::reference) return detail::make_reference_objective(setup);
  return detail::make_optimized_objective(setup, options.switches);
}

MeasuredDataObjective::MeasuredDataObjective(PipelineOptions pipeline, int64_t replayed_per_step)
    : pipeline_(std::move(pipeline)), replayed_per_step_(replayed_per_step) {
  if (replayed_per_step < 0) throw std::invalid_argument("MeasuredDataObjective: replayed_per_step must be >= 0");
}

void MeasuredDataObjective::add(SampleSetup setup) {
  // Alone, a sub-aperture's objective is the first-sample form: its own measurement, no old row.
  setup.first = true;
  setup.previous_centers.clear();
  setup.previous_reconstruction = at::Tensor();
  rows_.push_back(make_objective(setup, pipeline_));
}

LossPair MeasuredDataObjective::operator()(ProgressiveDecoderImpl& decoder) {
  if (rows_.empty()) throw std::logic_error("MeasuredDataObjective: no sub-aperture added");
  const auto newest = rows_.back()->operator()(decoder).new_row;
  const int64_t earlier = size() - 1;
  // Unscaled: the new row keeps a full share of every step of its sample. Scaling the replayed rows by
  // earlier / replayed (an unbiased estimate of the sum over all measured rows) was measured worse: dense scene
  // seed 0 16.0 against 27.0 dB, seed workload on europa 20.7 against 22.2 dB.
  at::Tensor replayed;
  for (int64_t r = 0; r < std::min(replayed_per_step_, earlier); ++r) {
    auto row = rows_[static_cast<size_t>(cursor_++ % earlier)]->operator()(decoder).new_row;
    replayed = replayed.defined() ? replayed + row : row;
  }
  return {replayed.defined() ? replayed : newest, newest};
}

}  // namespace recon
