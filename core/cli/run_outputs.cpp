#include "run_outputs.h"

#include "image_io.h"
#include "staged_files.h"
#include "recon/fourier.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

namespace recon::cli {

const std::vector<std::string>& output_file_names() {
  static const std::vector<std::string> names = {"reconstruction.png", "ground_truth.png", "error_map.png",
                                                 "kspace_coverage.png", "metrics.json"};
  return names;
}

namespace {
// The index of `name` in output_file_names(): the contents below are placed by name, never by position.
size_t output_index(const std::string& name) {
  const auto& names = output_file_names();
  return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}
}  // namespace

void require_writable_outputs(const std::string& folder) {
  for (const auto& name : output_file_names()) require_replaceable(folder + "/" + name);
}

void write_outputs(const std::string& folder, const at::Tensor& reconstruction, const at::Tensor& ground_truth,
                   int64_t object_size, const std::vector<Center>& centers, double radius, const nlohmann::json& metrics) {
  const auto rec = evaluation_window(reconstruction.detach(), object_size);
  const auto gt = evaluation_window(ground_truth, object_size);
  const auto error = (rec - gt).abs();
  const int64_t n = ground_truth.size(-1);
  auto spectrum = at::log1p(at::abs(fft2c(ground_truth)) * 100.0);
  spectrum = spectrum / spectrum.max();
  auto coverage = union_mask(n, centers, radius).to(at::kFloat);
  auto rgb = at::stack({spectrum * 0.8, spectrum * 0.5 + coverage * 0.5, spectrum * 0.8}, -1);
  std::vector<std::string> contents(output_file_names().size());
  contents.at(output_index("reconstruction.png")) = grayscale_png(rec, 0.0, 1.0);
  contents.at(output_index("ground_truth.png")) = grayscale_png(gt, 0.0, 1.0);
  contents.at(output_index("error_map.png")) = grayscale_png(error, 0.0, std::max(error.max().item<double>(), 1e-12));
  contents.at(output_index("kspace_coverage.png")) = rgb_png((rgb * 255.0).round().clamp(0.0, 255.0));
  // a non-UTF-8 path cannot fail the run
  contents.at(output_index("metrics.json")) = metrics.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
  StagedFiles files;
  for (size_t i = 0; i < contents.size(); ++i) files.stage(folder + "/" + output_file_names()[i], contents[i]);
  files.commit();
}

nlohmann::json quality_json(const QualityReport& q) {
  // JSON has no infinity: a perfect reconstruction's PSNR is written as null.
  auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  return {{"psnr_db", finite(q.psnr_db)}, {"ssim", q.ssim},       {"mse", q.mse},
          {"mae", q.mae},                 {"rmse_pct", q.rmse_pct}, {"cosine_similarity", q.cosine},
          {"max_abs_difference", q.max_abs}, {"relative_error", q.relative_error}};
}

}  // namespace recon::cli
