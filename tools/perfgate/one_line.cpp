#include "one_line.h"

#include "utf8_text.h"

namespace perfgate {

std::string one_line(const std::string& text) {
  // A backslash is doubled first, so that an escape visible_text writes cannot be forged by the text itself.
  std::string doubled;
  doubled.reserve(text.size());
  for (const char c : text) doubled += c == '\\' ? std::string("\\\\") : std::string(1, c);
  return visible_text(doubled);
}

std::string shell_quote(const std::string& text) {
  const std::string safe = one_line(text);
  bool plain = !safe.empty();
  for (const char c : safe) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string("_./:=@%+,-").find(c) != std::string::npos;
    plain = plain && word;
  }
  if (plain) return safe;
  std::string quoted = "'";
  for (const char c : safe) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace perfgate
