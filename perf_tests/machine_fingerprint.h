#pragma once
// Which machine a timing was measured on, as a short stable key: absolute timings in a baseline are advisory
// and are only compared when the results come from a machine with the same fingerprint.
#include <string>

namespace perf {

/// The facts that set a machine's speed for this code, as one line: CPU model, logical CPUs, memory (GiB),
/// the ATen kernel level, threads, and build type, e.g. "AMD EPYC 9B14|2 cpu|23 GiB|AVX2|1 thread|Release".
std::string machine_description(const std::string& cpu_model, const std::string& isa, int threads, const std::string& build_type);

/// A 16-hex-digit FNV-1a hash of machine_description(...).
std::string machine_fingerprint(const std::string& description);

}  // namespace perf
