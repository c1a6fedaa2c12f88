#include "base/number_format.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace perfgate {
namespace {

constexpr double kAllDigitsBelow = 1e15;  // a double holds every integer and two decimals exactly enough below this
constexpr double kFixedFrom = 1e5;        // from here on, significant digits would hide whole units

std::string without_trailing_zeros(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

std::string format_number(double value, int significant) {
  std::ostringstream out;
  const double magnitude = std::fabs(value);
  if (std::isfinite(value) && magnitude < kAllDigitsBelow && value == std::trunc(value)) {
    out << std::fixed << std::setprecision(0) << value;
    return out.str() == "-0" ? "0" : out.str();
  }
  if (std::isfinite(value) && magnitude >= kFixedFrom && magnitude < kAllDigitsBelow) {
    out << std::fixed << std::setprecision(2) << value;
    return without_trailing_zeros(out.str());
  }
  out << std::setprecision(significant) << value;
  return out.str();
}

std::string format_value(double value, const std::optional<int64_t>& exact) {
  return exact ? std::to_string(*exact) : format_number(value);
}

std::string format_fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

std::string change_text(double value, double baseline) {
  if (!std::isfinite(value) || !std::isfinite(baseline) || baseline == 0.0) return "";
  const double ratio = value / baseline;
  if (!std::isfinite(ratio)) return "";
  const double percent = (ratio - 1.0) * 100.0;
  const std::string sign = percent > 0 ? "+" : "";
  // A small change in plain decimals with two significant digits (+0.0000093%), never in exponent notation.
  const double magnitude = std::fabs(percent);
  const std::string amount = magnitude >= 100.0 ? format_fixed(percent, 0)
                             : magnitude == 0.0 || magnitude >= 0.01
                                 ? format_number(percent, 3)
                                 : format_fixed(percent, static_cast<int>(std::ceil(-std::log10(magnitude))) + 1);
  const std::string times = std::fabs(ratio) >= 1000.0 ? format_fixed(ratio, 0) : format_number(ratio, 4);
  return sign + amount + "% (" + times + "x)";
}

}  // namespace perfgate
