#pragma once
// Text from outside (benchmark names, paths, reasons) is bytes: it may be invalid UTF-8, hold a NUL, control
// characters or the bidirectional controls that reorder what a reader sees. Every output format reads it through
// these functions, so that no format gets bytes it cannot carry and no cut splits a character.
#include <cstdint>
#include <functional>
#include <string>

namespace perfgate {

/// Calls `emit` with each code point of `text` in order; a byte that starts no valid UTF-8 sequence (a stray
/// continuation byte, an overlong form, a surrogate, a value above U+10FFFF, a sequence cut short) is passed as
/// U+FFFD with `invalid_byte` set to it, so that a caller can show the byte itself.
void for_each_code_point(const std::string& text,
                         const std::function<void(uint32_t code_point, int invalid_byte)>& emit);

/// The UTF-8 encoding of one code point.
std::string utf8_of(uint32_t code_point);

/// True for the controls that change the display order of text (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069,
/// U+061C): shown as their names wherever a person reads the text.
bool is_bidi_control(uint32_t code_point);

/// At most `limit` code points of valid UTF-8 `text` (invalid bytes already count as one each): the first `head`
/// and the last `limit − head − 1` around "…" when it is longer. Never cuts inside a character.
std::string shorten(const std::string& text, size_t limit, size_t head);

/// `text` as readable valid UTF-8: invalid bytes as \xNN, C0 controls and DEL as \xNN (\n, \r, \t as such), bidi
/// controls as \u{NNNN}; everything else unchanged.
std::string visible_text(const std::string& text);

}  // namespace perfgate
