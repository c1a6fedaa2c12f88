#pragma once
// The current time as perfgate records it: UTC, ISO 8601, to the second.
#include <string>

namespace perfgate {

std::string utc_now();  ///< e.g. "2026-11-22T14:05:09Z"

}  // namespace perfgate
