#include "blas_kernels.h"

#include "recon/runtime.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace recon::detail {

CpuVectorSupport cpu_vector_support() {
  __builtin_cpu_init();
  CpuVectorSupport cpu;
  // GCC's checks include the OS's consent (XGETBV) to the AVX and AVX-512 register state, not only CPUID's bits.
  cpu.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  cpu.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return cpu;
}

std::string replacement_blas_kernels(const std::string& loaded, const CpuVectorSupport& cpu, bool coretype_set) {
  if (coretype_set || loaded != "Prescott") return "";
  if (cpu.avx512) return "SkylakeX";
  if (cpu.avx2_fma) return "Haswell";
  return "";
}

namespace {

// OpenBLAS's own entry points, looked up in the process rather than linked: the core links Debian's generic libblas,
// which the alternatives system may point at another BLAS.
template <typename Function>
Function* openblas_symbol(const char* name) {
  return reinterpret_cast<Function*>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

std::string loaded_blas_kernels() {
  auto* corename = openblas_symbol<char*()>("openblas_get_corename");
  if (corename == nullptr) return "";
  const char* name = corename();
  return name != nullptr ? name : "";
}

std::string reinitialise_blas(const std::string& kernels) {
  // gotoblas_quit and gotoblas_init are the library's own teardown and start-up (its load runs the latter); start-up
  // reads OPENBLAS_CORETYPE. The variable holds `kernels` only for that call, then what it held before: a child
  // process chooses for itself again.
  auto* quit = openblas_symbol<void()>("gotoblas_quit");
  auto* init = openblas_symbol<void()>("gotoblas_init");
  if (quit == nullptr || init == nullptr) return loaded_blas_kernels();
  const char* given = std::getenv("OPENBLAS_CORETYPE");
  const bool was_set = given != nullptr;
  const std::string before = was_set ? given : "";
  quit();
  setenv("OPENBLAS_CORETYPE", kernels.c_str(), 1);
  init();
  if (was_set) setenv("OPENBLAS_CORETYPE", before.c_str(), 1);
  else unsetenv("OPENBLAS_CORETYPE");
  return loaded_blas_kernels();
}

}  // namespace recon::detail

namespace recon {

std::string choose_blas_kernels() {
  static std::once_flag chosen;
  std::call_once(chosen, [] {
    const auto replacement = detail::replacement_blas_kernels(detail::loaded_blas_kernels(), detail::cpu_vector_support(),
                                                              std::getenv("OPENBLAS_CORETYPE") != nullptr);
    if (!replacement.empty()) detail::reinitialise_blas(replacement);
  });
  return detail::loaded_blas_kernels();
}

}  // namespace recon
