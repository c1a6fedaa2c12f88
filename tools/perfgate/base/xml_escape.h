#pragma once
// Escaping for text placed in HTML, SVG and XML (JUnit): benchmark names are data, never markup.
#include <string>

namespace perfgate {

/// Replaces & < > " ' with entities, and drops control characters XML 1.0 cannot carry.
std::string escape_xml(const std::string& text);

/// A name made safe as one file-name component: letters, digits, '-' and '_' kept, anything else '_'
/// (so "../x" or "a/b" can never leave the output folder); never empty.
std::string file_slug(const std::string& name);

}  // namespace perfgate
