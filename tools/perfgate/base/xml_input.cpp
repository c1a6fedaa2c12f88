#include "base/xml_input.h"

#include "base/error.h"
#include "base/utf8_text.h"

#include <cstdint>

namespace perfgate {

const std::string* XmlElement::attribute(const std::string& key) const {
  for (const auto& [attribute_name, value] : attributes)
    if (attribute_name == key) return &value;
  return nullptr;
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == ':';
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& source) : text_(text), source_(source) {}

  XmlElement document() {
    if (starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte order mark
    skip_misc();
    if (starts_with("<!DOCTYPE") || starts_with("<!doctype"))
      fail("has a document type declaration, which perfgate does not read");
    if (at_end() || text_[pos_] != '<') fail("is not XML (no root element)");
    XmlElement root = element(1);
    skip_misc();
    if (!at_end()) fail("has more after its root element '" + root.name + "'");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source_ + ":" + std::to_string(line_) + ": " + what);
  }
  bool at_end() const { return pos_ >= text_.size(); }
  bool starts_with(const char* s) const { return text_.compare(pos_, std::char_traits<char>::length(s), s) == 0; }
  void advance(size_t n) {
    for (size_t i = 0; i < n && pos_ < text_.size(); ++i, ++pos_)
      if (text_[pos_] == '\n') ++line_;
  }
  void skip_space() {
    while (!at_end() && is_space(text_[pos_])) advance(1);
  }
  // Moves past `end`, failing with `what` when the text ends first.
  void skip_past(const char* end, const char* what) {
    const auto found = text_.find(end, pos_);
    if (found == std::string::npos) fail(std::string("has an unterminated ") + what);
    advance(found + std::char_traits<char>::length(end) - pos_);
  }
  // White space, comments and processing instructions (the declaration among them), outside the root.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts_with("<?")) {
        skip_past("?>", "processing instruction");
      } else if (starts_with("<!--")) {
        skip_past("-->", "comment");
      } else {
        return;
      }
    }
  }
  std::string name() {
    const size_t start = pos_;
    while (!at_end() && is_name_char(text_[pos_])) ++pos_;
    if (pos_ == start) fail("has a tag or attribute without a name");
    return text_.substr(start, pos_ - start);
  }
  // Replaces the entity at pos_ ('&'), appending what it stands for.
  void entity(std::string& out) {
    const auto semicolon = text_.find(';', pos_);
    if (semicolon == std::string::npos || semicolon - pos_ > 12) fail("has an unterminated entity");
    const std::string body = text_.substr(pos_ + 1, semicolon - pos_ - 1);
    if (body == "lt")
      out += '<';
    else if (body == "gt")
      out += '>';
    else if (body == "amp")
      out += '&';
    else if (body == "quot")
      out += '"';
    else if (body == "apos")
      out += '\'';
    else if (body.size() > 1 && body[0] == '#') {
      const bool hex = body[1] == 'x';
      const std::string digits = body.substr(hex ? 2 : 1);
      if (digits.empty() || digits.size() > 8) fail("has a bad character reference '&" + body + ";'");
      uint32_t code = 0;
      for (const char c : digits) {
        int d = -1;
        if (c >= '0' && c <= '9')
          d = c - '0';
        else if (hex && c >= 'a' && c <= 'f')
          d = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F')
          d = c - 'A' + 10;
        if (d < 0) fail("has a bad character reference '&" + body + ";'");
        code = code * (hex ? 16 : 10) + static_cast<uint32_t>(d);
      }
      if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        fail("has a character reference to no character '&" + body + ";'");
      out += utf8_of(code);
    } else {
      fail("has an unknown entity '&" + body + ";'");
    }
    advance(semicolon + 1 - pos_);
  }
  std::string attribute_value() {
    if (at_end() || (text_[pos_] != '"' && text_[pos_] != '\'')) fail("has an attribute value without quotes");
    const char quote = text_[pos_];
    advance(1);
    std::string value;
    for (;;) {
      if (at_end()) fail("has an unterminated attribute value");
      const char c = text_[pos_];
      if (c == quote) break;
      if (c == '<') fail("has '<' in an attribute value");
      if (c == '&') {
        entity(value);
        continue;
      }
      value += c;
      advance(1);
    }
    advance(1);
    return value;
  }
  XmlElement element(int depth) {
    if (depth > kMaxXmlDepth) fail("nests elements deeper than " + std::to_string(kMaxXmlDepth) + " levels");
    if (++elements_ > kMaxXmlElements) fail("has more than " + std::to_string(kMaxXmlElements) + " elements");
    XmlElement e;
    e.line = line_;
    advance(1);  // '<'
    e.name = name();
    for (;;) {
      const size_t before = pos_;
      skip_space();
      if (at_end()) fail("ends inside the tag '" + e.name + "'");
      if (starts_with("/>")) {
        advance(2);
        return e;
      }
      if (text_[pos_] == '>') {
        advance(1);
        break;
      }
      if (pos_ == before) fail("has no space between the attributes of '" + e.name + "'");
      std::string key = name();
      skip_space();
      if (at_end() || text_[pos_] != '=') fail("has an attribute '" + key + "' without a value");
      advance(1);
      skip_space();
      std::string value = attribute_value();
      if (e.attributes.size() >= static_cast<size_t>(kMaxXmlAttributes))
        fail("gives '" + e.name + "' more than " + std::to_string(kMaxXmlAttributes) + " attributes");
      if (e.attribute(key) != nullptr) fail("gives the attribute '" + key + "' of '" + e.name + "' twice");
      if (++attributes_ > kMaxXmlAttributesInAll)
        fail("has more than " + std::to_string(kMaxXmlAttributesInAll) + " attributes in all");
      e.attributes.emplace_back(std::move(key), std::move(value));
    }
    // Content: child elements, skipped character data, comments, CDATA and processing instructions.
    for (;;) {
      const auto next = text_.find_first_of("<&", pos_);
      if (next == std::string::npos) fail("ends before '" + e.name + "' is closed");
      advance(next - pos_);
      if (text_[pos_] == '&') {
        std::string ignored;
        entity(ignored);
        continue;
      }
      if (starts_with("</")) {
        advance(2);
        const std::string closing = name();
        if (closing != e.name) fail("closes '" + closing + "' where '" + e.name + "' is open");
        skip_space();
        if (at_end() || text_[pos_] != '>') fail("has a malformed end tag '" + closing + "'");
        advance(1);
        return e;
      }
      if (starts_with("<!--")) {
        skip_past("-->", "comment");
      } else if (starts_with("<![CDATA[")) {
        skip_past("]]>", "CDATA section");
      } else if (starts_with("<?")) {
        skip_past("?>", "processing instruction");
      } else if (starts_with("<!")) {
        fail("has a declaration inside '" + e.name + "'");
      } else {
        e.children.push_back(element(depth + 1));
      }
    }
  }

  const std::string& text_;
  const std::string& source_;
  size_t pos_ = 0;
  int line_ = 1;
  int elements_ = 0;
  int attributes_ = 0;
};

}  // namespace

XmlElement parse_xml_input(const std::string& text, const std::string& source) {
  return Parser(text, source).document();
}

}  // namespace perfgate
