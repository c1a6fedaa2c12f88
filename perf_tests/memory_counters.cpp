#include "memory_counters.h"

#include <fstream>

namespace perf {

double resident_mib(const std::string& key) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(key + ":", 0) == 0) return std::stod(line.substr(key.size() + 1)) / 1024.0;  // kB
  }
  return 0.0;
}

MemoryCounters::~MemoryCounters() {
  const auto after = heap_counts();
  const double iterations = state_.iterations() > 0 ? static_cast<double>(state_.iterations()) : 1.0;
  state_.counters["heap_allocs_per_iter"] = static_cast<double>(after.allocations - before_.allocations) / iterations;
  state_.counters["heap_mib_per_iter"] = static_cast<double>(after.bytes - before_.bytes) / iterations / (1024.0 * 1024.0);
  state_.counters["peak_rss_mib"] = resident_mib("VmHWM");
}

}  // namespace perf
