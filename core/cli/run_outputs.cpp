#include "run_outputs.h"

#include "atomic_file.h"
#include "image_io.h"
#include "recon/fourier.h"

#include <ATen/ATen.h>

#include <cmath>
#include <fstream>

namespace recon::cli {

void write_images(const std::string& folder, const at::Tensor& reconstruction, const at::Tensor& ground_truth,
                  int64_t object_size, const std::vector<Center>& centers, double radius) {
  const auto rec = evaluation_window(reconstruction.detach(), object_size);
  const auto gt = evaluation_window(ground_truth, object_size);
  write_grayscale_png(folder + "/reconstruction.png", rec, 0.0, 1.0);
  write_grayscale_png(folder + "/ground_truth.png", gt, 0.0, 1.0);
  const auto error = (rec - gt).abs();
  write_grayscale_png(folder + "/error_map.png", error, 0.0, std::max(error.max().item<double>(), 1e-12));

  const int64_t n = ground_truth.size(-1);
  auto spectrum = at::log1p(at::abs(fft2c(ground_truth)) * 100.0);
  spectrum = spectrum / spectrum.max();
  auto coverage = union_mask(n, centers, radius).to(at::kFloat);
  auto rgb = at::stack({spectrum * 0.8, spectrum * 0.5 + coverage * 0.5, spectrum * 0.8}, -1);
  write_rgb_png(folder + "/kspace_coverage.png", (rgb * 255.0).round().clamp(0.0, 255.0));
}

void write_metrics(const std::string& folder, const nlohmann::json& metrics) {
  const std::string path = folder + "/metrics.json";
  write_atomically(path, [&](const std::string& temporary) {
    std::ofstream out(temporary);
    out << metrics.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';  // a non-UTF-8 path cannot fail the run
    if (!out.good()) throw std::runtime_error("cannot write '" + path + "'");
  });
}

nlohmann::json quality_json(const QualityReport& q) {
  // JSON has no infinity: a perfect reconstruction's PSNR is written as null.
  auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  return {{"psnr_db", finite(q.psnr_db)}, {"ssim", q.ssim},       {"mse", q.mse},
          {"mae", q.mae},                 {"rmse_pct", q.rmse_pct}, {"cosine_similarity", q.cosine},
          {"max_abs_difference", q.max_abs}, {"relative_error", q.relative_error}};
}

}  // namespace recon::cli
