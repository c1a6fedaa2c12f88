#pragma once
// RECON_VECTOR_KERNEL marks a hot loop for GCC function multiversioning: the function is compiled twice, for
// x86-64-v3 (AVX2, FMA) and for the baseline the project is built for, and the dynamic loader picks one by CPU at
// start-up (an ifunc). The build stays portable and the machines that have AVX2 use it: measured on the optimized
// step at N = 512, 18.3 ms with baseline (SSE2) loops, 16.5 ms with these kernels built for x86-64-v3.
//
// Contract: results may differ between the two versions in the last bits (FMA contraction), never within one
// machine, so runs stay repeatable where they are compared. Elsewhere (other compilers or architectures) the
// macro is empty.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define RECON_VECTOR_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define RECON_VECTOR_KERNEL
#endif
