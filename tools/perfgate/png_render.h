#pragma once
// SVG to PNG with a real browser: headless Chromium (Debian's `chromium`) takes a screenshot of the SVG file.
#include <string>

namespace perfgate {

/// The browser perfgate uses: $PERFGATE_CHROMIUM if set, else `chromium` from PATH.
std::string chromium_command();

/// Renders `svg_path` to `png_path` at width × height CSS pixels. Throws InputError when the browser cannot be
/// started or writes no PNG.
void render_png(const std::string& svg_path, const std::string& png_path, int width, int height);

}  // namespace perfgate
