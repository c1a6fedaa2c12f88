#include "render/png_render.h"

#include "base/error.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "run/process.h"

#include <cstdlib>
#include <filesystem>

namespace perfgate {

constexpr double kChromiumSeconds = 120.0;  // one plot takes about a second; a first start with a cold cache, a few

std::string chromium_command() {
  const char* configured = std::getenv("PERFGATE_CHROMIUM");
  return configured != nullptr && *configured != '\0' ? configured : "chromium";
}

std::string render_png(const std::string& svg_path, int width, int height) {
  const auto svg = std::filesystem::absolute(svg_path).string();
  // Chromium writes its screenshot into a private folder: a link planted where the caller puts the PNG is never
  // written through by the browser.
  const TemporaryFolder scratch("png");
  const auto shot = (scratch.path() / "plot.png").string();
  // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start. A profile of its own in the
  // private folder: two renders at once (parallel tests, two reports) never meet in the user's profile, whose lock
  // would hand the second to the first. A browser that hangs is killed with its children after kChromiumSeconds.
  ProcessOptions options;
  options.standard_error = StandardError::discard;
  options.timeout_seconds = kChromiumSeconds;
  const auto r = run_process({chromium_command(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                              "--user-data-dir=" + (scratch.path() / "profile").string(),
                              "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                              "--screenshot=" + shot, "file://" + svg},
                             options);
  if (r.timed_out) {
    throw InputError("rendering " + svg_path + " to PNG with '" + chromium_command() + "' did not finish within " +
                     std::to_string(static_cast<int>(kChromiumSeconds)) +
                     " s (leave out --png, or set PERFGATE_CHROMIUM)");
  }
  if (r.status != 0 || !std::filesystem::is_regular_file(shot)) {
    throw InputError("cannot render " + svg_path + " to PNG with '" + chromium_command() +
                     "' (install Debian's chromium, set PERFGATE_CHROMIUM, or leave out --png)");
  }
  return read_whole_file(shot, "the rendered PNG");
}

}  // namespace perfgate
