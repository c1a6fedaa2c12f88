#pragma once
// Which OpenBLAS kernel set this process runs, and the one it should run where OpenBLAS's CPU table is older than the
// CPU (recon::choose_blas_kernels in recon/runtime.h).
#include <string>

namespace recon::detail {

/// What the CPU supports of the instruction sets OpenBLAS's kernel sets need, as the OS enables them.
struct CpuVectorSupport {
  bool avx512 = false;    ///< AVX-512 F, CD, BW, DQ and VL: OpenBLAS's SkylakeX kernels
  bool avx2_fma = false;  ///< AVX2 and FMA: OpenBLAS's Haswell kernels
};
CpuVectorSupport cpu_vector_support();

/// The kernel set to re-initialise OpenBLAS with, or "" to leave it as loaded: only when it fell back to "Prescott"
/// (its choice for a CPU model it does not know) on a CPU that supports a wider set, and only when the user has not
/// named one (`coretype_set`: OPENBLAS_CORETYPE is in the environment).
std::string replacement_blas_kernels(const std::string& loaded, const CpuVectorSupport& cpu, bool coretype_set);

/// OpenBLAS's kernel set in this process; "" when OpenBLAS's entry points are not found in the process (another BLAS,
/// or an OpenBLAS linked without exporting them).
std::string loaded_blas_kernels();
/// Re-initialises OpenBLAS with `kernels` (an OPENBLAS_CORETYPE name; an unknown one gets OpenBLAS's own choice) and
/// returns the set in use afterwards, unchanged where OpenBLAS offers no way. The process's environment is as before.
/// Only while no BLAS call runs on any thread, and before the process starts other threads (it sets and unsets an
/// environment variable).
std::string reinitialise_blas(const std::string& kernels);

}  // namespace recon::detail
