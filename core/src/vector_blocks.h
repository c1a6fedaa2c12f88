#pragma once
// What the core's register-blocked kernels share: eight or sixteen floats as one vector value, and the dispatch of a
// channel count into blocks whose size is a compile-time constant.
#include <cstdint>
#include <cstring>

namespace recon::detail {

// Eight consecutive floats as one value: GCC's vector extension, which becomes one AVX register in the x86-64-v3
// clone of a kernel (cpu_dispatch.h) and two SSE registers in the baseline one.
typedef float Vec8 __attribute__((vector_size(32)));

// Sixteen consecutive floats as one value: one AVX-512 register in a RECON_WIDE_KERNEL (cpu_dispatch.h).
typedef float Vec16 __attribute__((vector_size(64)));

// How many floats a vector holds, and its loads and stores: through memcpy (no alignment), and by reference (a 32-byte
// vector returned by value from a function built without AVX changes the ABI).
template <typename V>
constexpr int64_t kLanesOf = static_cast<int64_t>(sizeof(V) / sizeof(float));
template <typename V>
__attribute__((always_inline)) inline void load(V& v, const float* x) { std::memcpy(&v, x, sizeof v); }
template <typename V>
__attribute__((always_inline)) inline void store(float* x, const V& v) { std::memcpy(x, &v, sizeof v); }
// Every lane set to b, through memory as a load: built lane by lane or from a braced list, GCC 12 reports the
// wide kernels' accumulators as possibly uninitialised.
template <typename V>
__attribute__((always_inline)) inline void splat(V& v, float b) {
  float lanes[kLanesOf<V>];
  for (float& lane : lanes) lane = b;
  load(v, lanes);
}

template <template <int64_t> class Blocks, int64_t C, typename... Args>
__attribute__((always_inline)) inline void last_block(int64_t left, int64_t first, const Args&... args) {
  if constexpr (C > 0) {
    if (left == C) Blocks<C>::run(first, args...);
    else last_block<Blocks, C - 1>(left, first, args...);
  }
}

// Runs Blocks<Size>::run(first, args…) over channels [begin, end) (in_channel_blocks: [0, count)) in blocks of Size
// and then one block of the 1 to Size − 1 left, each block size a compile-time constant, so that a block's sums live in registers. No lambdas: a kernel's
// x86-64-v3 clone inlines these, where a lambda's body would be compiled for the baseline.
template <int64_t Size, template <int64_t> class Blocks, typename... Args>
__attribute__((always_inline)) inline void in_channel_range(int64_t begin, int64_t end, const Args&... args) {
  int64_t first = begin;
  for (; first + Size <= end; first += Size) Blocks<Size>::run(first, args...);
  last_block<Blocks, Size - 1>(end - first, first, args...);
}
template <int64_t Size, template <int64_t> class Blocks, typename... Args>
__attribute__((always_inline)) inline void in_channel_blocks(int64_t count, const Args&... args) {
  in_channel_range<Size, Blocks>(0, count, args...);
}

}  // namespace recon::detail
