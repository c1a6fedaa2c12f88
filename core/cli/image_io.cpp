#include "image_io.h"

#include <ATen/ATen.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <memory>
#include <stdexcept>

namespace recon::cli {

at::Tensor read_grayscale(const std::string& path) {
  int width = 0, height = 0, channels = 0;
  // Sizes first: a few KB of PNG can declare billions of pixels. The largest grid is 8192, so a side beyond
  // 16384 or more than 64 M pixels is never a target.
  if (stbi_info(path.c_str(), &width, &height, &channels) == 0) {
    throw std::runtime_error("cannot read image '" + path + "': " + stbi_failure_reason());
  }
  if (width > 16384 || height > 16384 || static_cast<int64_t>(width) * height > (int64_t{64} << 20)) {
    throw std::runtime_error("image '" + path + "' is " + std::to_string(width) + "x" + std::to_string(height) +
                             " pixels; at most 16384 on a side and 64 M pixels are read");
  }
  std::unique_ptr<unsigned char, void (*)(void*)> pixels(stbi_load(path.c_str(), &width, &height, &channels, 1), stbi_image_free);
  if (!pixels) throw std::runtime_error("cannot read image '" + path + "': " + stbi_failure_reason());
  auto image = at::from_blob(pixels.get(), {height, width}, at::kByte).to(at::kFloat);  // copies before the free
  return image;
}

namespace {
// Encoded in memory: the file is written by the caller, whose writes are checked (stb's are not).
std::string png(const at::Tensor& bytes, int channels) {
  auto contiguous = bytes.contiguous();
  const int height = static_cast<int>(contiguous.size(0)), width = static_cast<int>(contiguous.size(1));
  std::string encoded;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (stbi_write_png_to_func(append, &encoded, width, height, channels, contiguous.data_ptr<uint8_t>(), width * channels) == 0) {
    throw std::runtime_error("cannot encode a " + std::to_string(width) + "x" + std::to_string(height) + " PNG");
  }
  return encoded;
}
}  // namespace

std::string grayscale_png(const at::Tensor& image, double lo, double hi) {
  const double span = hi > lo ? hi - lo : 1.0;
  auto scaled = ((image.detach().to(at::kDouble) - lo) * (255.0 / span)).round().clamp(0.0, 255.0).to(at::kByte);
  return png(scaled, 1);
}

std::string rgb_png(const at::Tensor& rgb) { return png(rgb.to(at::kByte), 3); }

}  // namespace recon::cli
