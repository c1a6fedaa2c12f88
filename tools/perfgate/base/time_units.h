#pragma once
// Google Benchmark's time units, and conversion between them: a time is only ever compared in one unit.
#include <string>

namespace perfgate {

/// True for the units Google Benchmark writes as time_unit: "ns", "us", "ms", "s".
bool is_time_unit(const std::string& unit);

/// `value` expressed in `from`, converted to `to`; both must be time units (checked by the caller).
double convert_time(double value, const std::string& from, const std::string& to);

}  // namespace perfgate
