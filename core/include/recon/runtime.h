#pragma once
/// Process-wide settings that decide reproducibility: threads and seeds, and what to record about them.
#include <cstdint>
#include <string>

namespace recon {

/// Sets LibTorch's intra-op threads (and OpenMP's) to exactly `threads` (≥ 1); throws std::invalid_argument.
void set_threads(int64_t threads);

/// Seeds LibTorch's global CPU generator: the decoder's weights and latent are drawn from it.
void seed_everything(uint64_t seed);

/// What a result must record to be reproducible or comparable.
struct RuntimeInfo {
  std::string torch_version;  ///< e.g. "1.13.0"
  int64_t threads = 1;
  std::string cpu_capability;  ///< ATen's dispatch level, e.g. "AVX512"
  std::string cpu_model;       ///< from /proc/cpuinfo when readable, else empty
};
RuntimeInfo runtime_info();

}  // namespace recon
