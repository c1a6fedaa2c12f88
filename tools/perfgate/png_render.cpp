#include "png_render.h"

#include "error.h"
#include "process.h"

#include <cstdlib>
#include <filesystem>

namespace perfgate {

std::string chromium_command() {
  const char* configured = std::getenv("PERFGATE_CHROMIUM");
  return configured != nullptr && *configured != '\0' ? configured : "chromium";
}

void render_png(const std::string& svg_path, const std::string& png_path, int width, int height) {
  const auto svg = std::filesystem::absolute(svg_path).string();
  const auto png = std::filesystem::absolute(png_path).string();
  std::filesystem::remove(png);
  // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
  ProcessOptions options;
  options.standard_error = StandardError::discard;
  const auto r = run_process({chromium_command(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                              "--window-size=" + std::to_string(width) + "," + std::to_string(height), "--screenshot=" + png,
                              "file://" + svg},
                             options);
  if (r.status != 0 || !std::filesystem::exists(png)) {
    throw InputError("cannot render " + svg_path + " to PNG with '" + chromium_command() +
                     "' (install Debian's chromium, set PERFGATE_CHROMIUM, or leave out --png)");
  }
}

}  // namespace perfgate
