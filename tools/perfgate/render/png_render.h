#pragma once
// SVG to PNG with a real browser: headless Chromium (Debian's `chromium`) takes a screenshot of the SVG file.
#include <string>

namespace perfgate {

/// The browser perfgate uses: $PERFGATE_CHROMIUM if set, else `chromium` from PATH.
std::string chromium_command();

/// Renders `svg_path` to `png_path` at width × height CSS pixels. The browser writes into a private folder; the PNG is
/// then put at `png_path` as a name (a link there is replaced, not followed). Throws InputError when the browser cannot
/// be started, writes no PNG, or runs past its time limit (killed with its children).
void render_png(const std::string& svg_path, const std::string& png_path, int width, int height);

}  // namespace perfgate
