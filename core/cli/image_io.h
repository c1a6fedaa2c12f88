#pragma once
// Image files for the recon command: reading a target, writing 8-bit PNGs. The core never touches files.
#include <ATen/Tensor.h>

#include <string>

namespace recon::cli {

/// Reads a PNG or JPEG as grayscale: [H, W] float32 in [0, 255]. Throws std::runtime_error with the file name
/// and the decoder's reason when the file is missing or not an image.
at::Tensor read_grayscale(const std::string& path);

/// [H, W] values mapped linearly from [lo, hi] to 0..255 (clamped), encoded as an 8-bit grayscale PNG file's bytes.
/// Throws std::runtime_error when the encoder fails.
std::string grayscale_png(const at::Tensor& image, double lo, double hi);

/// [H, W, 3] uint8 encoded as an RGB PNG file's bytes. Throws std::runtime_error when the encoder fails.
std::string rgb_png(const at::Tensor& rgb);

}  // namespace recon::cli
