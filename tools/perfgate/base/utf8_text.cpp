#include "base/utf8_text.h"

#include <cstdio>
#include <vector>

namespace perfgate {

void for_each_code_point(const std::string& text, const std::function<void(uint32_t, int)>& emit) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char b = bytes[i];
    int length = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
    uint32_t cp = length == 1 ? b : length == 2 ? (b & 0x1fu) : length == 3 ? (b & 0x0fu) : (b & 0x07u);
    bool valid = length > 0 && i + static_cast<size_t>(length) <= n;
    for (int k = 1; valid && k < length; ++k) {
      const unsigned char c = bytes[i + static_cast<size_t>(k)];
      valid = (c >> 6) == 0x2;
      cp = (cp << 6) | (c & 0x3fu);
    }
    // Overlong forms, surrogates and values beyond Unicode are not characters.
    const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    valid = valid && cp >= smallest[length] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    if (valid) {
      emit(cp, -1);
      i += static_cast<size_t>(length);
    } else {
      emit(0xfffd, b);
      ++i;
    }
  }
}

std::string utf8_of(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
  return out;
}

bool is_bidi_control(uint32_t cp) {
  return cp == 0x200e || cp == 0x200f || cp == 0x061c || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

std::string shorten(const std::string& text, size_t limit, size_t head) {
  std::vector<std::string> characters;
  for_each_code_point(text, [&](uint32_t cp, int invalid) {
    characters.push_back(invalid >= 0 ? std::string(1, static_cast<char>(invalid)) : utf8_of(cp));
  });
  if (characters.size() <= limit) return text;
  if (head + 1 > limit) head = limit - 1;
  std::string out;
  for (size_t k = 0; k < head; ++k) out += characters[k];
  out += "…";
  for (size_t k = characters.size() - (limit - head - 1); k < characters.size(); ++k) out += characters[k];
  return out;
}

std::string visible_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  char escaped[16];
  for_each_code_point(text, [&](uint32_t cp, int invalid) {
    if (invalid >= 0) {
      std::snprintf(escaped, sizeof escaped, "\\x%02x", invalid);
      out += escaped;
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp < 0x20 || cp == 0x7f) {
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(cp));
      out += escaped;
    } else if (cp >= 0x80 && cp < 0xa0) {  // C1 controls (U+0085 is a line break): by code point, unlike a stray byte
      std::snprintf(escaped, sizeof escaped, "\\u{%04x}", static_cast<unsigned>(cp));
      out += escaped;
    } else if (is_bidi_control(cp)) {
      std::snprintf(escaped, sizeof escaped, "\\u{%04x}", static_cast<unsigned>(cp));
      out += escaped;
    } else {
      out += utf8_of(cp);
    }
  });
  return out;
}

}  // namespace perfgate
