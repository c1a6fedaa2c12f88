#pragma once
// Image files for the recon command: reading a target, writing 8-bit PNGs. The core never touches files.
#include <ATen/Tensor.h>

#include <string>

namespace recon::cli {

/// Reads a PNG or JPEG as grayscale: [H, W] float32 in [0, 255]. Throws std::runtime_error with the file name
/// and the decoder's reason when the file is missing or not an image.
at::Tensor read_grayscale(const std::string& path);

/// Writes [H, W] values mapped linearly from [lo, hi] to 0..255 (clamped) as an 8-bit grayscale PNG, atomically
/// (temporary file, then rename). Throws std::runtime_error on failure.
void write_grayscale_png(const std::string& path, const at::Tensor& image, double lo, double hi);

/// Writes [H, W, 3] uint8 as an RGB PNG, atomically.
void write_rgb_png(const std::string& path, const at::Tensor& rgb);

}  // namespace recon::cli
