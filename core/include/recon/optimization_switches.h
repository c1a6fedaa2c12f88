#pragma once
/// The optimized pipeline's switches, written once. Everything else is derived from RECON_OPTIMIZATION_SWITCHES: the
/// fields of OptimizationSwitches and their defaults, the names in ablation order, access by name, the CLI's
/// choices, the `switches` object of metrics.json, the ablation's benchmarks and the dependencies the execution plan
/// (recon/pipeline.h) enforces. Plain C++ without LibTorch, so that the CLI's argument parser and its fuzzer can use
/// it without the core.
#include <string>
#include <vector>

namespace recon {

// X(name, on by default, the switches it needs (space-separated), what it does). All are exact: they change rounding
// only (the loss is invariant to a permutation shared by prediction and target).
#define RECON_OPTIMIZATION_SWITCHES(X)                                                                                  \
  X(precompute_sample, true, "", "masks, targets and normalisers built once per sample, not per step")                  \
  X(shared_spectrum, true, "", "one spectrum of the output feeds both rows; the two inverses run batched")              \
  X(fold_shifts, true, "", "no fftshift/flip copies: targets are permuted once into FFT order")                         \
  X(pruned_forward, true, "", "the forward FFT transforms only the S rows of the object box")                           \
  X(pruned_inverse, true, "fold_shifts", "the new row's inverse FFT runs on the disc's bounding box only")               \
  X(fused_physics, true, "precompute_sample shared_spectrum pruned_forward pruned_inverse",                              \
    "physics and L1 loss as one node on FFTW row passes with an analytic adjoint (other losses take the unfused path)") \
  X(matvec_first_layer, true, "", "the decoder's first layer as a matrix-vector product")                               \
  X(subpixel_upsampling, false, "",                                                                                     \
    "stride-2 transposed convolutions as conv + pixel shuffle (measured slower: off; blas_upsampling takes precedence)") \
  X(blas_upsampling, true, "", "stride-2 transposed convolutions on BLAS directly, without LibTorch's col2im")           \
  X(fused_batchnorm_relu, true, "", "each BatchNorm and its ReLU as one node with its own loops")                       \
  X(small_channel_conv, true, "", "the decoder's <= 8-channel 3x3 convolutions run a direct kernel")                    \
  X(fused_adam, true, "", "Adam as one loop per parameter, gradients released instead of zeroed")                       \
  X(factored_first_layer_grad, true, "matvec_first_layer",                                                              \
    "the first layer's rank-one weight gradient reaches Adam as its two factors, never as an 8 MB tensor")             \
  X(caching_allocator, true, "",                                                                                        \
    "large step temporaries reuse cached blocks instead of fresh pages (takes effect inside a PipelineScope)")

/// Example: OptimizationSwitches s; s.fused_adam = false; — every switch on as its default says, one flipped.
struct OptimizationSwitches {
#define RECON_SWITCH_FIELD(name, on, needs, doc) bool name = on;
  RECON_OPTIMIZATION_SWITCHES(RECON_SWITCH_FIELD)
#undef RECON_SWITCH_FIELD

  static OptimizationSwitches none();  ///< every switch off: the optimized pipeline degenerates to plain ops
  /// Names of the switches, in ablation order, and access by name (throws std::invalid_argument).
  static const std::vector<std::string>& names();
  bool& by_name(const std::string& name);
  bool by_name(const std::string& name) const;
  /// These switches with `name` turned off together with every switch that needs it, directly or not: what "turn
  /// this optimisation off" means when others build on it (throws std::invalid_argument for an unknown name).
  OptimizationSwitches without(const std::string& name) const;
  /// These switches with `name` flipped: turned off as `without` does, or turned on when it was off.
  OptimizationSwitches toggled(const std::string& name) const;
};

/// One row of the table, for readers that list or document the switches.
struct SwitchInfo {
  std::string name;
  bool on_by_default = false;
  std::vector<std::string> needs;  ///< switches that must be on for this one to be on
  std::string doc;
};

/// The table in ablation order.
const std::vector<SwitchInfo>& switch_table();

/// The first unmet need of `switches`, as "<switch> needs <needed>, which is off", or "" when every switch that is
/// on has what it needs on.
std::string unmet_switch_need(const OptimizationSwitches& switches);

}  // namespace recon
