#pragma once
// Numbers as perfgate prints them in tables, reports and messages.
#include <string>

namespace perfgate {

/// `significant` significant digits, shortest form (as std::ostream with setprecision): 2.13098, 5301, 1e-05.
std::string format_number(double value, int significant = 6);

/// `digits` digits after the decimal point: format_fixed(2.5, 2) == "2.50".
std::string format_fixed(double value, int digits);

}  // namespace perfgate
