#pragma once
// Text from outside (benchmark names, reasons, machine names) written into Markdown that GitHub renders: it must
// render as that text and nothing else.
#include <string>

namespace perfgate {

/// `text` as Markdown that renders as itself: controls, invalid bytes and bidirectional controls made visible (one
/// line: a newline would end a table row), '<' and '>' as entities (no HTML), every ASCII punctuation character that
/// can start markup backslash-escaped (no link, image, emphasis, code span, autolink or table cell's end), and a
/// zero-width space after each '@', '#' and ':' and after a '-' that follows a letter, so that no name mentions a user
/// or team (GitHub notifies them), becomes an e-mail link, references an issue (#1, GH-1, GHSA-...: GitHub links it
/// and notes the reference there) or an emoji (:name:). GitHub finds these in the rendered text, so backslashes alone
/// do not stop them. Longer than `max_characters` characters: cut there and ended with "…".
std::string markdown_text(const std::string& text, size_t max_characters = 300);

/// A table cell of the pull request's comment: markdown_text cut at 200 characters.
inline std::string markdown_cell(const std::string& text) { return markdown_text(text, 200); }

}  // namespace perfgate
