// The process settings that decide reproducibility: the BLAS kernels chosen for this CPU.
#include "blas_kernels.h"
#include "recon/runtime.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using recon::detail::CpuVectorSupport;
using recon::detail::replacement_blas_kernels;

TEST(blas_kernels, only_openblas_fallback_is_replaced_by_the_widest_set_the_cpu_supports) {
  const CpuVectorSupport avx512{true, true}, avx2{false, true}, sse{false, false};
  EXPECT_EQ(replacement_blas_kernels("Prescott", avx512, false), "SkylakeX");
  EXPECT_EQ(replacement_blas_kernels("Prescott", avx2, false), "Haswell");
  EXPECT_EQ(replacement_blas_kernels("Prescott", sse, false), "");  // the fallback is all the CPU can run
  // OpenBLAS's own choice for a CPU it knows stands, even where it is narrower than the CPU's widest set.
  EXPECT_EQ(replacement_blas_kernels("Haswell", avx512, false), "");
  EXPECT_EQ(replacement_blas_kernels("Zen", avx512, false), "");
  EXPECT_EQ(replacement_blas_kernels("", avx512, false), "");  // not OpenBLAS
  // OPENBLAS_CORETYPE in the environment is the user's choice, whatever it names.
  EXPECT_EQ(replacement_blas_kernels("Prescott", avx512, true), "");
}

// A product large enough for the library's blocked kernels, against the same product in double precision.
double largest_product_error() {
  at::manual_seed(3);
  const auto a = at::randn({96, 200}), b = at::randn({200, 72});
  const auto product = at::mm(a, b);
  const auto exact = at::mm(a.to(at::kDouble), b.to(at::kDouble));
  return (product.to(at::kDouble) - exact).abs().max().item<double>();
}

TEST(blas_kernels, setting_the_threads_chooses_the_kernels_the_cpu_supports) {
  const bool coretype_before = std::getenv("OPENBLAS_CORETYPE") != nullptr;
  recon::set_threads(1);  // chooses the kernels, as in every program
  const auto kernels = recon::runtime_info().blas_kernels;
  const auto cpu = recon::detail::cpu_vector_support();
  if (!kernels.empty() && !coretype_before && cpu.avx2_fma) {
    EXPECT_NE(kernels, "Prescott") << "OpenBLAS runs its SSE3 kernels on a CPU with AVX2 and FMA";
  }
  EXPECT_EQ(recon::choose_blas_kernels(), kernels);  // once per process: a later call changes nothing
  // The choice is this process's: a child process (the environment it inherits) chooses for itself.
  EXPECT_EQ(std::getenv("OPENBLAS_CORETYPE") != nullptr, coretype_before);
  EXPECT_LT(largest_product_error(), 1e-3);
}

// The re-initialisation itself, on every machine (where OpenBLAS knows the CPU, set_threads never runs it): to the
// SSE3 set and back, each set computing products, the environment as before.
TEST(blas_kernels, reinitialisation_switches_the_kernel_set_and_leaves_the_environment) {
  recon::set_threads(1);
  const auto chosen = recon::runtime_info().blas_kernels;
  if (chosen.empty()) GTEST_SKIP() << "the BLAS in this process is not OpenBLAS";
  const char* before = std::getenv("OPENBLAS_CORETYPE");
  const bool was_set = before != nullptr;
  const std::string coretype_before = was_set ? before : "(unset)";
  EXPECT_EQ(recon::detail::reinitialise_blas("Prescott"), "Prescott");
  EXPECT_LT(largest_product_error(), 1e-3);
  const char* after = std::getenv("OPENBLAS_CORETYPE");
  EXPECT_EQ(after != nullptr ? after : "(unset)", coretype_before);
  // A value the user set is given back too.
  setenv("OPENBLAS_CORETYPE", "a user's choice", 1);
  EXPECT_EQ(recon::detail::reinitialise_blas(chosen), chosen);
  EXPECT_LT(largest_product_error(), 1e-3);
  after = std::getenv("OPENBLAS_CORETYPE");
  EXPECT_STREQ(after != nullptr ? after : "(unset)", "a user's choice");
  if (was_set) setenv("OPENBLAS_CORETYPE", coretype_before.c_str(), 1);
  else unsetenv("OPENBLAS_CORETYPE");
}

}  // namespace
