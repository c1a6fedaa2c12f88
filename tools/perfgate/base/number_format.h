#pragma once
// Numbers as perfgate prints them in tables, reports and messages.
#include <cstdint>
#include <optional>
#include <string>

namespace perfgate {

/// A value as a reader compares it: a whole number below 10^15 in all its digits (225960, never 2.2596e+05: a change
/// of one count must show), other values from 10^5 up with at most two decimals (1054460.35), smaller ones with
/// `significant` significant digits in the shortest form (2.13098, 0.5, 1e-05).
std::string format_number(double value, int significant = 6);

/// `exact` in all its digits when given (a count kept exact beyond 2^53), otherwise format_number(value).
std::string format_value(double value, const std::optional<int64_t>& exact);

/// `digits` digits after the decimal point: format_fixed(2.5, 2) == "2.50".
std::string format_fixed(double value, int digits);

/// How far `value` moved from `baseline`, as a percentage and a ratio: "+3.2% (1.032x)", "-50% (0.5x)", "0% (1x)";
/// "" when there is no ratio to give (a zero or non-finite baseline).
std::string change_text(double value, double baseline);

}  // namespace perfgate
