#include "base/one_line.h"

#include "base/utf8_text.h"

namespace perfgate {

std::string one_line(const std::string& text) {
  // A backslash is doubled first, so that an escape visible_text writes cannot be forged by the text itself.
  std::string doubled;
  doubled.reserve(text.size());
  for (const char c : text) doubled += c == '\\' ? std::string("\\\\") : std::string(1, c);
  return visible_text(doubled);
}

std::string shell_quote(const std::string& text) {
  bool plain = !text.empty(), printable = true;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string("_./:=@%+,-").find(c) != std::string::npos;
    plain = plain && word;
    printable = printable && byte >= 0x20 && byte < 0x7f;
  }
  if (plain) return text;
  std::string quoted;
  if (printable) {
    quoted = "'";
    for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
  }
  static const char* const hex = "0123456789abcdef";
  quoted = "$'";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      quoted += std::string("\\") + c;
    } else if (byte >= 0x20 && byte < 0x7f) {
      quoted += c;
    } else {
      quoted += std::string("\\x") + hex[byte >> 4] + hex[byte & 15];
    }
  }
  return quoted + "'";
}

}  // namespace perfgate
