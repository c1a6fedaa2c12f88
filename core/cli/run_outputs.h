#pragma once
// What `recon reconstruct` leaves in its output folder: four PNGs and metrics.json.
#include "recon/aperture.h"
#include "recon/metrics.h"

#include <ATen/Tensor.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace recon::cli {

/// The names of the files a run writes into its output folder.
const std::vector<std::string>& output_file_names();

/// Throws std::runtime_error when one of the run's outputs in `folder` exists and is not a regular file (e.g. a
/// folder named metrics.json): checked before the run, so that no run is computed and then not written.
void require_writable_outputs(const std::string& folder);

/// Writes, all or none (staged_files.h): reconstruction.png, ground_truth.png and error_map.png (the S×S evaluation
/// window), kspace_coverage.png (log spectrum of the ground truth, sampled discs in green) and `metrics` as
/// pretty-printed JSON in metrics.json. Throws std::runtime_error naming the file that could not be written (or,
/// out of memory only, the PNG that could not be encoded).
void write_outputs(const std::string& folder, const at::Tensor& reconstruction, const at::Tensor& ground_truth,
                   int64_t object_size, const std::vector<Center>& centers, double radius, const nlohmann::json& metrics);

/// The quality fields shared by the final result and every per-sample record.
nlohmann::json quality_json(const QualityReport& q);

}  // namespace recon::cli
