#pragma once
// Which machine a results file was measured on, for suites that do not say so themselves. Absolute timings in a
// baseline are advisory and compared only between results with the same machine_fingerprint; a suite may write one
// into its context itself, most Google Benchmark suites do not.
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace perfgate {

struct MachineIdentity {
  std::string description;  ///< e.g. "2 cpu|L1d 32K L1i 32K L2 1024K L3 32768K|library release|Intel(R) Xeon(R) ..."
  std::string fingerprint;  ///< "gb-" + 16 hex digits of a hash of the description
};

/// Derived from Google Benchmark's own context: logical CPUs, cache sizes and the library's build type, and what
/// perfgate adds where it runs the suite (run/host_context.h): the processor's model (cpu_name) and the name its owner
/// gave the host (machine_name, from PERFGATE_MACHINE), which tell apart two hosts of the same shape. The clock is left
/// out (VMs of one type report a few MHz apart, and any rounding has edges that split them), and so is the host name
/// (CI runners get a new one per job). nullopt when the context has neither num_cpus nor caches (nothing to tell
/// machines apart by).
std::optional<MachineIdentity> identity_from_benchmark_context(const nlohmann::json& context);

}  // namespace perfgate
