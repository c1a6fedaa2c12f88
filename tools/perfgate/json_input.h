#pragma once
// The one way perfgate parses JSON it was given: bounded nesting, errors as InputError naming the source.
#include <nlohmann/json.hpp>

#include <string>

namespace perfgate {

/// Deepest nesting of arrays and objects accepted. Google Benchmark results, baselines and Chrome traces nest
/// at most four levels; the bound keeps every later recursive walk (dump, comparison, copy) far from the stack's end.
constexpr int kMaxJsonDepth = 64;

/// Parses `text`. Throws InputError "<source>: not valid JSON (...)" for syntax errors and numbers out of range,
/// and "<source>: JSON nested deeper than 64 levels" for deeper input; the parse stops at the first level too deep.
nlohmann::json parse_json_input(const std::string& text, const std::string& source);

}  // namespace perfgate
