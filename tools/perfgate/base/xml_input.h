#pragma once
// The one way perfgate parses XML it was given (a harness's report): elements and their attributes, bounded nesting,
// every error an InputError naming the source and line. Character data is not kept: the reports perfgate reads carry
// their figures in attributes.
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

/// Deepest nesting of elements accepted: a harness's report nests fewer than ten levels (Catch2: run, group, test
/// case, sections, results); the bound keeps the recursive parse far from the stack's end.
constexpr int kMaxXmlDepth = 64;

/// Most attributes of one element, and most elements of a document: a harness's report has a handful and some
/// thousands; the bounds keep the duplicate check linear and the parsed tree a small multiple of the input.
constexpr int kMaxXmlAttributes = 256;
constexpr int kMaxXmlElements = 1000000;
constexpr int kMaxXmlAttributesInAll = 1000000;

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  ///< in document order, entities replaced
  std::vector<XmlElement> children;
  int line = 0;  ///< where its start tag begins, for messages

  /// The attribute's value, nullptr when absent.
  const std::string* attribute(const std::string& key) const;
};

/// Parses `text` as one XML document and returns its root element. Accepts the XML declaration, comments, processing
/// instructions and CDATA (skipped), and the five predefined entities and character references. Refuses a document
/// type declaration (no entity it could declare is ever expanded), an unknown entity, an attribute given twice,
/// mismatched tags, anything after the root but comments and white space, nesting deeper than kMaxXmlDepth, more than
/// kMaxXmlAttributes attributes on an element, more than kMaxXmlElements elements and more than kMaxXmlAttributesInAll
/// attributes in all. A UTF-8 byte order mark at the
/// start is skipped.
/// Linear in the input's size.
XmlElement parse_xml_input(const std::string& text, const std::string& source);

}  // namespace perfgate
