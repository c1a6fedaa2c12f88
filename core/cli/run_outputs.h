#pragma once
// What `recon reconstruct` leaves in its output folder: four PNGs and metrics.json.
#include "recon/aperture.h"
#include "recon/metrics.h"

#include <ATen/Tensor.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace recon::cli {

/// Writes reconstruction.png, ground_truth.png and error_map.png (the S×S evaluation window) and
/// kspace_coverage.png (log spectrum of the ground truth, sampled discs in green) into `folder`.
void write_images(const std::string& folder, const at::Tensor& reconstruction, const at::Tensor& ground_truth,
                  int64_t object_size, const std::vector<Center>& centers, double radius);

/// Writes `metrics` as pretty-printed JSON to folder/metrics.json, atomically.
void write_metrics(const std::string& folder, const nlohmann::json& metrics);

/// The quality fields shared by the final result and every per-sample record.
nlohmann::json quality_json(const QualityReport& q);

}  // namespace recon::cli
