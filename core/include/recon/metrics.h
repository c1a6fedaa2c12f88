#pragma once
/// Image-quality metrics: free functions on tensors of equal shape (float32 or float64, any leading dims).
#include <ATen/Tensor.h>

#include <cstdint>

namespace recon {

/// PRISM's evaluation window: the centred S×S crop with the reference's +1 offset (indices 193..320 for
/// N=512, S=128). `image`: [..., N, N]; returns a view [..., S, S].
at::Tensor evaluation_window(const at::Tensor& image, int64_t object_size);

double mse(const at::Tensor& estimate, const at::Tensor& reference);
double mae(const at::Tensor& estimate, const at::Tensor& reference);
/// Peak signal-to-noise ratio in dB, 20·log10(data_range / √MSE); +inf when the images are equal.
double psnr(const at::Tensor& estimate, const at::Tensor& reference, double data_range = 1.0);
/// 100 · ‖estimate − reference‖₂ / ‖reference‖₂ (PRISM's "RMSE %").
double rmse_percent(const at::Tensor& estimate, const at::Tensor& reference);
/// ⟨a, b⟩ / (‖a‖‖b‖); 0 when either is all zero.
double cosine_similarity(const at::Tensor& estimate, const at::Tensor& reference);
double max_abs_difference(const at::Tensor& estimate, const at::Tensor& reference);
/// ‖estimate − reference‖₂ / ‖reference‖₂ (the RMSE % divided by 100).
double relative_error(const at::Tensor& estimate, const at::Tensor& reference);

/// Structural similarity with an 11×11 Gaussian window (σ = 1.5) applied after reflect padding of 5 pixels,
/// C1 = (0.01·L)², C2 = (0.03·L)², population variances, averaged over the whole map (PRISM's definition).
/// Inputs [H, W] or [B, C, H, W]; differentiable, returns a 0-dim tensor (the mean over batch and map).
at::Tensor ssim(const at::Tensor& a, const at::Tensor& b, double data_range = 1.0);

/// Multi-scale SSIM: 5 scales with weights (0.0448, 0.2856, 0.3001, 0.2363, 0.1333), 2×2 average pooling
/// between scales, contrast-structure terms at the first scales and l·cs at the last, product of
/// clamp(v, 1e-10, 1)^w; scales whose image would be smaller than the window are dropped. Differentiable.
at::Tensor ms_ssim(const at::Tensor& a, const at::Tensor& b, double data_range = 1.0);

/// All metrics at once on the evaluation window, as the trainer and the recon command report them.
struct QualityReport {
  double psnr_db = 0, ssim = 0, mse = 0, mae = 0, rmse_pct = 0, cosine = 0, max_abs = 0, relative_error = 0;
};
/// `reconstruction` and `ground_truth`: [N, N] or [1, 1, N, N]; evaluated on evaluation_window(·, S).
QualityReport evaluate(const at::Tensor& reconstruction, const at::Tensor& ground_truth, int64_t object_size);

}  // namespace recon
