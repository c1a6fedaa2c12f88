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

TEST(blas_kernels, this_process_runs_kernels_the_cpu_supports_and_they_compute_products) {
  recon::set_threads(1);  // chooses the kernels, as in every program
  const auto kernels = recon::choose_blas_kernels();
  EXPECT_EQ(kernels, recon::runtime_info().blas_kernels);
  const auto cpu = recon::detail::cpu_vector_support();
  if (!kernels.empty() && std::getenv("OPENBLAS_CORETYPE") == nullptr && cpu.avx2_fma) {
    EXPECT_NE(kernels, "Prescott") << "OpenBLAS runs its SSE3 kernels on a CPU with AVX2 and FMA";
  }
  // A product large enough for the library's blocked kernels, against the same product in double precision.
  at::manual_seed(3);
  const auto a = at::randn({96, 200}), b = at::randn({200, 72});
  const auto product = at::mm(a, b);
  const auto exact = at::mm(a.to(at::kDouble), b.to(at::kDouble));
  EXPECT_LT((product.to(at::kDouble) - exact).abs().max().item<double>(), 1e-3);
}

}  // namespace
