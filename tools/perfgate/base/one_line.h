#pragma once
// Text from outside (names, paths, error messages) made safe to print on one line of a terminal or a log that
// other tools parse: no line break, escape sequence or other control character gets through.
#include <string>

namespace perfgate {

/// `text` with control characters written as escapes: \n, \r, \t, \\ for a backslash, \xNN for the rest
/// (including DEL and every byte that is not valid UTF-8), \u{NNNN} for C1 and bidirectional controls. Other
/// characters pass unchanged (utf8_text.h's visible_text).
std::string one_line(const std::string& text);

/// `text` as one word of a shell command that means exactly `text`, on one line of printable ASCII: unchanged when it
/// holds only characters no shell treats specially; in single quotes (a quote inside written as '\'') when it is
/// printable ASCII; otherwise in bash's $'...' with every other byte as \xNN (control characters, escape sequences and
/// non-ASCII bytes cannot reach the terminal, and the word still names the same bytes). Already safe to print: never
/// pass a quoted word through one_line, whose escapes would change it.
std::string shell_quote(const std::string& text);

}  // namespace perfgate
