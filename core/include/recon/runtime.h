#pragma once
/// Process-wide settings that decide reproducibility: threads and seeds, and what to record about them.
#include <cstdint>
#include <string>

namespace recon {

/// Sets LibTorch's intra-op threads (and OpenMP's) to exactly `threads` (≥ 1); throws std::invalid_argument. Its first
/// call also runs choose_blas_kernels(), so that every program that sets its threads runs the same BLAS kernels.
void set_threads(int64_t threads);

/// The BLAS library's kernels for this CPU. OpenBLAS picks its kernel set by CPU model when it loads; on a CPU its table
/// does not know it falls back to its SSE3 set ("Prescott") whatever the CPU supports. There, and only there, this
/// re-initialises OpenBLAS with the set the CPU supports: "SkylakeX" with AVX-512 (F, CD, BW, DQ, VL), "Haswell" with
/// AVX2 and FMA. Left as loaded: another BLAS, another choice of OpenBLAS's, or OPENBLAS_CORETYPE set (the user's
/// choice). Call before any BLAS work and before the process starts other threads (it re-initialises the library and
/// sets an environment variable for the moment it takes); later calls do nothing. Returns the kernel set in use
/// (runtime_info().blas_kernels).
std::string choose_blas_kernels();

/// Seeds LibTorch's global CPU generator: the decoder's weights and latent are drawn from it.
void seed_everything(uint64_t seed);

/// What a result must record to be reproducible or comparable.
struct RuntimeInfo {
  std::string torch_version;  ///< e.g. "1.13.0"
  int64_t threads = 1;
  std::string cpu_capability;  ///< ATen's dispatch level, e.g. "AVX512"
  std::string cpu_model;       ///< from /proc/cpuinfo when readable, else empty
  std::string blas_kernels;    ///< OpenBLAS's kernel set, e.g. "Haswell"; "" where OpenBLAS is not found in the process
};
RuntimeInfo runtime_info();

}  // namespace recon
