// The XML perfgate reads from harnesses: attributes with their entities replaced, nothing a document could declare
// or nest without bound.
#include "base/xml_input.h"
#include "base/error.h"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string refusal(const std::string& text) {
  try {
    perfgate::parse_xml_input(text, "r.xml");
  } catch (const perfgate::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(xml_input, reads_elements_and_attributes_with_entities_replaced) {
  const auto root = perfgate::parse_xml_input(R"(<?xml version="1.0" encoding="UTF-8"?>
<!-- a report -->
<Catch name='suite'>
  <Group name="g"><![CDATA[ <not> & markup ]]>text &amp; more
    <BenchmarkResults name="parse &lt;a &amp; b&gt; &quot;q&quot; &#233;&#x1F600;"/>
  </Group>
</Catch>
)",
                                              "r.xml");
  EXPECT_EQ(root.name, "Catch");
  ASSERT_EQ(root.children.size(), 1u);
  const auto& results = root.children[0].children.at(0);
  EXPECT_EQ(*results.attribute("name"), "parse <a & b> \"q\" \xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(results.line, 5);
  EXPECT_EQ(results.attribute("missing"), nullptr);
}

TEST(xml_input, refuses_what_it_does_not_read_with_the_line) {
  EXPECT_NE(refusal("<a>\n<b></a>").find("r.xml:2: closes 'a' where 'b' is open"), std::string::npos);
  EXPECT_NE(refusal("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>").find("document type declaration"), std::string::npos);
  EXPECT_NE(refusal("<a v=\"&x;\"/>").find("unknown entity '&x;'"), std::string::npos);
  EXPECT_NE(refusal("<a v=\"1\" v=\"2\"/>").find("gives the attribute 'v' of 'a' twice"), std::string::npos);
  EXPECT_NE(refusal("<a/><b/>").find("more after its root"), std::string::npos);
  EXPECT_NE(refusal("<a v=\"&#0;\"/>").find("no character"), std::string::npos);
  EXPECT_NE(refusal("<a v=1/>").find("without quotes"), std::string::npos);
  EXPECT_NE(refusal("<a><b>").find("ends before 'b' is closed"), std::string::npos);
  EXPECT_NE(refusal("not xml").find("no root element"), std::string::npos);
  std::string deep;
  for (int i = 0; i < perfgate::kMaxXmlDepth + 1; ++i) deep += "<a>";
  EXPECT_NE(refusal(deep).find("deeper than 64"), std::string::npos);
  std::string crowded = "<a";
  for (int i = 0; i <= perfgate::kMaxXmlAttributes; ++i) crowded += " k" + std::to_string(i) + "=\"\"";
  EXPECT_NE(refusal(crowded + "/>").find("more than 256 attributes"), std::string::npos);
  EXPECT_EQ(perfgate::parse_xml_input("\xEF\xBB\xBF<a/>", "r.xml").name, "a");  // a byte order mark first
}
