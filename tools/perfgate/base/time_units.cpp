#include "base/time_units.h"

namespace perfgate {
namespace {

double seconds_per(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  return 1.0;
}

}  // namespace

bool is_time_unit(const std::string& unit) { return unit == "ns" || unit == "us" || unit == "ms" || unit == "s"; }

double convert_time(double value, const std::string& from, const std::string& to) {
  return from == to ? value : value * (seconds_per(from) / seconds_per(to));
}

}  // namespace perfgate
