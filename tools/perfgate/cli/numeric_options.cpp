#include "cli/numeric_options.h"

#include <cmath>
#include <optional>
#include <sstream>

namespace perfgate {
namespace {

// The option's text as a finite number, or nullopt (trailing characters, nan, inf and overflow alike).
std::optional<double> finite_number(const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

CLI::Validator finite_in(double low, double high) {
  std::ostringstream rule;
  rule << "a finite number in [" << low << ", " << high << "]";
  const std::string description = rule.str();
  return CLI::Validator(
      [low, high, description](std::string& text) -> std::string {
        const auto v = finite_number(text);
        return v && *v >= low && *v <= high ? std::string() : "'" + text + "' is not " + description;
      },
      "NUMBER in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
}

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto v = finite_number(text);
        return v && *v > 0.0 ? std::string() : "'" + text + "' is not a finite number > 0";
      },
      "NUMBER > 0");
}

}  // namespace perfgate
