#pragma once
// One level of the cache hierarchy callgrind simulates: a typed value from the manifest's "cache" member or
// `perfgate cost --cache`, validated once where it is made and turned into callgrind's option only by the cost runner.
#include <cstdint>
#include <string>
#include <vector>

namespace perfgate {

struct SimulatedCache {
  std::string level;  ///< "I1", "D1" or "LL"
  int64_t bytes = 0, ways = 0, line_bytes = 0;
};

/// A level of `bytes` in `ways`-way sets of `line_bytes` lines. Throws InputError (naming `where`) for another level,
/// or for sizes callgrind refuses: lines of 16 to 512 bytes, a whole power-of-two number of sets, at least 1 KiB, at
/// most 16 GiB.
SimulatedCache simulated_cache(const std::string& level, int64_t bytes, int64_t ways, int64_t line_bytes,
                               const std::string& where);

/// The same from the text LEVEL=BYTES,WAYS,LINE_BYTES.
SimulatedCache parse_simulated_cache(const std::string& text, const std::string& where);

/// LEVEL=BYTES,WAYS,LINE_BYTES, the form parse_simulated_cache reads.
std::string to_text(const SimulatedCache& cache);

/// Throws InputError (naming `where`) when two of `caches` simulate the same level.
void require_distinct_levels(const std::vector<SimulatedCache>& caches, const std::string& where);

}  // namespace perfgate
