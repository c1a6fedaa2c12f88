#pragma once
// The current time as perfgate records it: UTC, ISO 8601, to the second.
#include <string>

namespace perfgate {

std::string utc_now();  ///< e.g. "2026-11-22T14:05:09Z"

/// A date as perfgate accepts one (2026-11-23, 2026-11-23T04:00, 2026-11-23T04:00:00 or with Z) written out in full as
/// utc_now writes it, the parts not given being zero, so that two of them compare in time order as text. Any other
/// text is returned as it is.
std::string utc_instant_text(const std::string& date);

}  // namespace perfgate
