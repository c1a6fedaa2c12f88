#include "base/markdown_text.h"

#include "base/utf8_text.h"

#include <cctype>

namespace perfgate {

std::string markdown_text(const std::string& text, size_t max_characters) {
  const std::string visible = visible_text(text);
  std::string out;
  size_t characters = 0;
  for (size_t i = 0; i < visible.size(); ++i) {
    const char c = visible[i];
    // A character starts at every byte that is not a UTF-8 continuation byte; visible_text's output is valid UTF-8.
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++characters > max_characters) {
      out += "…";
      break;
    }
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '@')
      out += "@\u200B";
    else if (c == '#')
      out += "\\#\u200B";
    else if (c == ':')
      out += "\\:\u200B";
    else if (c == '-' && i > 0 && std::isalpha(static_cast<unsigned char>(visible[i - 1])))
      out += "\\-\u200B";
    else if (std::string("\\`*_{}[]()#+-.!|~:&\"'$^=").find(c) != std::string::npos)
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

}  // namespace perfgate
