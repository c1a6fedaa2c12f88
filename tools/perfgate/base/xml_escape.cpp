#include "base/xml_escape.h"

#include "base/utf8_text.h"

namespace perfgate {

std::string escape_xml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  // Code points, not bytes: invalid UTF-8 becomes U+FFFD (an XML document must be valid UTF-8), controls XML 1.0
  // cannot carry are dropped, and bidirectional controls are shown by name instead of reordering what is read.
  for_each_code_point(text, [&](uint32_t cp, int) {
    switch (cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if ((cp < 0x20 && cp != '\n' && cp != '\t' && cp != '\r') || cp == 0xfffe || cp == 0xffff) break;
        if (is_bidi_control(cp)) {
          out += visible_text(utf8_of(cp));
          break;
        }
        out += utf8_of(cp);
    }
  });
  return out;
}

std::string file_slug(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    out += keep ? c : '_';
  }
  if (out.size() > 120) out.resize(120);
  return out.empty() ? std::string("_") : out;
}

}  // namespace perfgate
