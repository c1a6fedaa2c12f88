#include "model/simulated_cache.h"

#include "base/error.h"

#include <regex>

namespace perfgate {

SimulatedCache simulated_cache(const std::string& level, int64_t bytes, int64_t ways, int64_t line_bytes,
                               const std::string& where) {
  if (level != "I1" && level != "D1" && level != "LL")
    throw InputError(where + ": cache level '" + level + "' is not I1, D1 or LL");
  if (bytes < 1024 || bytes > (int64_t{1} << 34) || ways < 1 || ways > 1024 || line_bytes < 16 || line_bytes > 512 ||
      (line_bytes & (line_bytes - 1)) != 0) {
    throw InputError(
        where + ": cache " + level + " of " + std::to_string(bytes) + " bytes, " + std::to_string(ways) + " ways, " +
        std::to_string(line_bytes) +
        "-byte lines is out of range (1 KiB to 16 GiB, 1 to 1024 ways, lines a power of two from 16 to 512)");
  }
  const int64_t sets = bytes / (ways * line_bytes);
  if (sets * ways * line_bytes != bytes || sets < 1 || (sets & (sets - 1)) != 0) {
    throw InputError(where + ": cache " + level + ": bytes / (ways x line bytes) = " + std::to_string(bytes) + " / " +
                     std::to_string(ways * line_bytes) +
                     " is not a whole power of two, which callgrind's cache simulation needs");
  }
  return {level, bytes, ways, line_bytes};
}

SimulatedCache parse_simulated_cache(const std::string& text, const std::string& where) {
  static const std::regex shape("(I1|D1|LL)=([0-9]{1,12}),([0-9]{1,5}),([0-9]{1,4})");
  std::smatch m;
  if (!std::regex_match(text, m, shape))
    throw InputError(where + ": '" + text + "' is not LEVEL=BYTES,WAYS,LINE_BYTES with LEVEL I1, D1 or LL");
  return simulated_cache(m[1].str(), std::stoll(m[2].str()), std::stoll(m[3].str()), std::stoll(m[4].str()), where);
}

std::string to_text(const SimulatedCache& cache) {
  return cache.level + "=" + std::to_string(cache.bytes) + "," + std::to_string(cache.ways) + "," +
         std::to_string(cache.line_bytes);
}

void require_distinct_levels(const std::vector<SimulatedCache>& caches, const std::string& where) {
  for (size_t i = 0; i < caches.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (caches[i].level == caches[j].level) throw InputError(where + " gives " + caches[i].level + " twice");
    }
  }
}

}  // namespace perfgate
