#pragma once
// RECON_VECTOR_KERNEL marks a hot loop for GCC function multiversioning: the function is compiled twice, for
// x86-64-v3 (AVX2, FMA) and for the baseline the project is built for, and the dynamic loader picks one by CPU at
// start-up (an ifunc). The build stays portable and the machines that have AVX2 use it: measured on the optimized
// step at N = 512, 18.3 ms with baseline (SSE2) loops, 16.5 ms with these kernels built for x86-64-v3.
//
// Contract: results may differ between the two versions in the last bits (FMA contraction), never within one
// machine, so runs stay repeatable where they are compared. Elsewhere (other compilers or architectures) the
// macro is empty.
//
// RECON_WIDE_KERNEL marks the AVX-512 (x86-64-v4) version of a kernel that also has a RECON_VECTOR_KERNEL one with
// narrower register blocks: the same operations per element in the same order, so the two give the same bits (tested
// in core/tests/wide_kernels_test.cpp). Callers choose between them with wide_kernels().
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define RECON_VECTOR_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#define RECON_WIDE_KERNEL __attribute__((target("arch=x86-64-v4")))
#define RECON_WIDE_KERNELS_BUILT 1
#else
#define RECON_VECTOR_KERNEL
#define RECON_WIDE_KERNEL
#define RECON_WIDE_KERNELS_BUILT 0
#endif

namespace recon::detail {

/// Whether the kernels with a RECON_WIDE_KERNEL version run it: by default where this build has them and the CPU
/// supports x86-64-v4 (AVX-512 F, BW, CD, DQ, VL).
bool wide_kernels();
/// Overrides that choice for the whole process (false: the narrow versions everywhere; true: the wide ones where the
/// CPU can run them, else false). Returns the choice now in force. For tests and measurements that compare the two.
bool set_wide_kernels(bool wide);

}  // namespace recon::detail
