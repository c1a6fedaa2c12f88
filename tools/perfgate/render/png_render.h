#pragma once
// SVG to PNG with a real browser: headless Chromium (Debian's `chromium`) takes a screenshot of the SVG file.
#include <string>

namespace perfgate {

/// The browser perfgate uses: $PERFGATE_CHROMIUM if set, else `chromium` from PATH.
std::string chromium_command();

/// Renders `svg_path` at width × height CSS pixels and returns the PNG's bytes. The browser writes into a private
/// folder, never into the caller's: where the PNG goes is the caller's output (output_files.h). Throws InputError
/// when the browser cannot be started, writes no PNG, or runs past its time limit (killed with its children).
std::string render_png(const std::string& svg_path, int width, int height);

}  // namespace perfgate
