#include "machine_fingerprint.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace perf {
namespace {

// MemTotal from the kernel, in whole GiB (rounded down: the same VM type reports a few MiB differently).
long memory_gib() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemTotal:", 0) == 0) return std::stol(line.substr(9)) / (1024L * 1024L);
  }
  return 0;
}

}  // namespace

std::string machine_description(const std::string& cpu_model, const std::string& isa, int threads, const std::string& build_type) {
  std::ostringstream out;
  out << (cpu_model.empty() ? "unknown CPU" : cpu_model) << '|' << std::thread::hardware_concurrency() << " cpu|" << memory_gib()
      << " GiB|" << (isa.empty() ? "unknown ISA" : isa) << '|' << threads << " thread|" << build_type;
  return out.str();
}

std::string machine_fingerprint(const std::string& description) {
  uint64_t hash = 14695981039346656037ULL;
  for (const unsigned char c : description) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace perf
