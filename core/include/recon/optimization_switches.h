#pragma once
/// The optimized pipeline's switches, written once. Everything else is derived from RECON_OPTIMIZATION_SWITCHES: the
/// fields of OptimizationSwitches and their defaults, the names in ablation order, access by name, the CLI's
/// choices, the `switches` object of metrics.json, the ablation's benchmarks and the dependencies the execution plan
/// (recon/pipeline.h) enforces. Plain C++ without LibTorch, so that the CLI's argument parser and its fuzzer can use
/// it without the core.
#include <string>
#include <vector>

namespace recon {

// X(name, on by default, where it runs, the switches it needs (space-separated), what it does). All are exact: they
// change rounding only (the loss is invariant to a permutation shared by prediction and target). Where it runs:
// any_device (LibTorch operations, on whatever device the tensors are), own_cuda_kernel (a CPU loop, and a CUDA kernel
// of core/cuda where the core was compiled with nvcc) or cpu_only (a CPU loop or allocator with no CUDA counterpart).
#define RECON_OPTIMIZATION_SWITCHES(X)                                                                                 \
  X(precompute_sample, true, any_device, "", "masks, targets and normalisers built once per sample, not per step")     \
  X(shared_spectrum, true, any_device, "", "one spectrum of the output feeds both rows; the two inverses run batched") \
  X(fold_shifts, true, any_device, "", "no fftshift/flip copies: targets are permuted once into FFT order")            \
  X(pruned_forward, true, any_device, "", "the forward FFT transforms only the S rows of the object box")              \
  X(pruned_inverse, true, any_device, "fold_shifts", "the new row's inverse FFT runs on the disc's bounding box only") \
  X(fused_physics, true, own_cuda_kernel, "precompute_sample shared_spectrum pruned_forward pruned_inverse",           \
    "physics and L1 loss as one node with an analytic adjoint: FFTW row passes, batched cuFFT on CUDA (L1 only)")      \
  X(matvec_first_layer, true, any_device, "", "the decoder's first layer as a matrix-vector product")                  \
  X(subpixel_upsampling, false, any_device, "",                                                                        \
    "stride-2 transposed convolutions as conv + pixel shuffle (measured slower: off; blas_upsampling takes precedence)") \
  X(blas_upsampling, true, cpu_only, "", "stride-2 transposed convolutions without LibTorch's col2im: BLAS products up to 8x8 inputs, the core's own loops above") \
  X(fused_batchnorm_relu, true, own_cuda_kernel, "", "each BatchNorm and its ReLU as one node with its own loops")     \
  X(small_channel_conv, true, cpu_only, "", "the decoder's <= 8-channel 3x3 convolutions run a direct kernel")         \
  X(fused_adam, true, own_cuda_kernel, "", "Adam as one loop per parameter, gradients released instead of zeroed")     \
  X(factored_first_layer_grad, true, any_device, "matvec_first_layer",                                                 \
    "the first layer's rank-one weight gradient reaches Adam as its two factors, never as an 8 MB tensor")             \
  X(caching_allocator, true, cpu_only, "",                                                                             \
    "large step temporaries reuse cached blocks instead of fresh pages (takes effect inside a PipelineScope)")        \
  X(box_init_loss, true, any_device, "",                                                                               \
    "the initialisation's L1 loss on the object box only: outside it the output is zero, a constant computed once")

/// Where a switch's implementation runs (the table's third column).
enum class SwitchDevices { any_device, own_cuda_kernel, cpu_only };

/// Example: OptimizationSwitches s; s.fused_adam = false; — every switch on as its default says, one flipped.
struct OptimizationSwitches {
#define RECON_SWITCH_FIELD(name, on, where, needs, doc) bool name = on;
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
  /// These switches as they run on a CUDA device: every cpu_only switch off, and every own_cuda_kernel switch too
  /// unless `own_kernels` (the core was compiled with its CUDA kernels), each with the switches that need it.
  OptimizationSwitches on_cuda(bool own_kernels) const;
};

/// One row of the table, for readers that list or document the switches.
struct SwitchInfo {
  std::string name;
  bool on_by_default = false;
  SwitchDevices devices = SwitchDevices::any_device;
  std::vector<std::string> needs;  ///< switches that must be on for this one to be on
  std::string doc;
};

/// The table in ablation order.
const std::vector<SwitchInfo>& switch_table();

/// The first unmet need of `switches`, as "<switch> needs <needed>, which is off", or "" when every switch that is
/// on has what it needs on.
std::string unmet_switch_need(const OptimizationSwitches& switches);

}  // namespace recon
