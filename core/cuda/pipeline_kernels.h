#pragma once
// The optimized pipeline's own kernels on a CUDA device: the fused physics and L1 loss (batched cuFFT), Adam as one
// pass per parameter, and BatchNorm + ReLU. A host interface with no CUDA and no LibTorch types, so that the core
// calls it from plain C++: pointers are device pointers, complex values are interleaved (re, im) float pairs, and the
// caller owns every buffer (the core allocates them as LibTorch tensors, from LibTorch's caching allocator). Every call
// queues its work on the legacy default stream, the stream LibTorch's operations run on unless a caller changes it,
// and returns without waiting; launch and cuFFT failures throw std::runtime_error with the runtime's reason.
// Reductions are deterministic: fixed blocks, fixed trees, partial sums added in a fixed order. The caller keeps
// LibTorch on its default stream while it uses these (the core never changes it): on another stream the kernels
// would not be ordered with LibTorch's operations.
#include <cstdint>

namespace recon::cuda {

// ---- The fused physics and L1 loss on the N × N grid in FFT order (DC at index 0) -------------------------------
// Rows r = 0 … rows − 1 (rows = 2: the old row, then the new one; rows = 1: the first sample, whose old row is its
// new one). pupils [rows, N, N] carry the 1/N² of the two unnormalised transforms. The row loss is
// Σ |(|y| − t)| · scales[r], y = IFFT(pupil ⊙ FFT(x)), x the object box at (offset, offset), zero elsewhere.

/// Number of per-block partial sums one row's loss uses: the size of `partials` is rows × this.
int64_t l1_physics_partials_per_row(int64_t n);

/// Forward: losses[0] (old row) and losses[1] (new row), float32 on the device; scales [rows] double on the device.
/// `spectrum` [N, N] complex is scratch; `images` [rows, N, N] complex is left holding each row's residual
/// sign(|y| − t) · y/|y| · scales[r] (zero where y = 0), which backward reads.
void l1_physics_forward(int64_t n, int64_t rows, const float* object, int64_t box, int64_t offset, const float* pupils,
                        const float* targets, const double* scales, float* spectrum, float* images, double* partials,
                        float* losses);

/// Backward: the gradient of grad_losses[0] · loss_old + grad_losses[1] · loss_new (grad_losses on the device) with
/// respect to the object box, written to grad [box, box]. Transforms `images` in place and uses `spectrum` as
/// scratch: one backward per forward.
void l1_physics_backward(int64_t n, int64_t rows, const float* grad_losses, const float* pupils, float* images,
                         float* spectrum, int64_t box, int64_t offset, float* grad);

// ---- Adam, one pass per parameter --------------------------------------------------------------------------------

/// The step's constants, as the CPU loop uses them (float32, computed once per step on the host).
struct AdamConstants {
  float b1, b2, one_minus_b1, one_minus_b2, step_size, bias2_sqrt, eps;
};

/// m ← b1 m + (1 − b1) g; v ← b2 v + (1 − b2) g²; p ← p − step_size · m / (√v / bias2_sqrt + eps): the CPU loop's
/// operations in its order, each rounded on its own (no fused multiply-adds). The CPU's vector clones may contract
/// into FMA, so the two agree to rounding, not bit for bit.
void adam_dense(const AdamConstants& c, int64_t count, float* p, float* m, float* v, const float* g);
/// The same for a [rows, cols] parameter whose gradient is the outer product left ⊗ right, never formed.
void adam_rank_one(const AdamConstants& c, int64_t rows, int64_t cols, float* p, float* m, float* v, const float* left,
                   const float* right);

// ---- BatchNorm (training mode) + ReLU over x [1, C, n] -----------------------------------------------------------

/// y = max(0, (x − mean) · invstd · γ + β) per channel, with the batch's mean and biased variance (double) and
/// invstd = 1/√(variance + eps) (float) written for backward.
void batch_norm_relu_forward(int64_t channels, int64_t n, const float* x, const float* gamma, const float* beta,
                             double eps, float* y, double* mean, double* variance, float* invstd);
/// What BatchNorm2d's training forward does to its running statistics: batches (int64, may be null) incremented;
/// running ← running · (1 − f) + batch · f, the variance unbiased, with f = momentum, or 1/batches when momentum < 0
/// (a cumulative average).
void batch_norm_update_running(int64_t channels, int64_t n, const double* mean, const double* variance,
                               float* running_mean, float* running_var, int64_t* batches, double momentum);
/// g = gy where y > 0; gβ = Σ g, gγ = Σ g x̂ and, unless gx is null, gx = γ · invstd · (g − gβ/n − x̂ · gγ/n).
void batch_norm_relu_backward(int64_t channels, int64_t n, const float* x, const float* y, const float* gy,
                              const float* gamma, const double* mean, const float* invstd, float* gx, float* ggamma,
                              float* gbeta);

}  // namespace recon::cuda
