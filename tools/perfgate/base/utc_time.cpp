#include "base/utc_time.h"

#include <chrono>
#include <ctime>

namespace perfgate {

std::string utc_now() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string utc_instant_text(const std::string& date) {
  static const std::string full = "0000-00-00T00:00:00Z";
  if (date.size() >= full.size()) return date;
  for (const size_t cut : {size_t{10}, size_t{16}, size_t{19}}) {
    if (date.size() == cut) return date + full.substr(cut);
  }
  return date;
}

}  // namespace perfgate
