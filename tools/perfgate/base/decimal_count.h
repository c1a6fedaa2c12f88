#pragma once
// A count written as plain decimal digits (callgrind's output, kept function profiles): the one reading of such a word.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace perfgate {

/// The non-negative whole number `word` writes in decimal digits only (no sign, space or exponent), or nullopt when it
/// is not one or exceeds int64.
inline std::optional<int64_t> decimal_count(const std::string& word) {
  if (word.empty() || word.size() > 19 || word.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const auto value = std::stoull(word);  // 19 digits fit an unsigned 64-bit integer
  if (value > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  return static_cast<int64_t>(value);
}

}  // namespace perfgate
