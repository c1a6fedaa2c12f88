#pragma once
// The one way perfgate parses JSON it was given (bounded nesting, one value per key, errors as InputError naming
// the source), and the way it writes the JSON it produces.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace perfgate {

/// Deepest nesting of arrays and objects accepted. Google Benchmark results, baselines and Chrome traces nest
/// at most four levels; the bound keeps every later recursive walk (dump, comparison, copy) far from the stack's end.
constexpr int kMaxJsonDepth = 64;

/// Parses `text`. Throws InputError naming the source for syntax errors and numbers out of range, for input
/// nested deeper than kMaxJsonDepth (the parse stops at the first level too deep), and for a key that appears
/// twice in one object. Linear in the input's size.
nlohmann::json parse_json_input(const std::string& text, const std::string& source);

/// The value exactly, when JSON wrote it as a whole number within int64 (a count); nullopt for any other value. A
/// double holds every integer only up to 2^53, so counts are compared and written through this.
std::optional<int64_t> exact_int64(const nlohmann::json& value);

/// The text of a JSON document perfgate writes as a report or results (2-space indentation, newline-terminated):
/// a name or path that is not valid UTF-8 is written with U+FFFD in place of the bad bytes instead of failing.
std::string json_output_text(const nlohmann::json& document);

}  // namespace perfgate
