// The example's workload, shared by its benchmark suite and its cost program: the same 4096 pseudo-random keys,
// sorted by std::sort and by insertion sort, counting comparisons.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace example {

inline std::vector<std::uint32_t> keys(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::uint32_t x = 2463534242u;  // xorshift32: the same keys everywhere
  for (auto& k : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    k = x;
  }
  return v;
}

/// Sorts `v` with std::sort; returns the comparisons made.
inline std::int64_t std_sort(std::vector<std::uint32_t>& v) {
  std::int64_t comparisons = 0;
  std::sort(v.begin(), v.end(), [&comparisons](std::uint32_t a, std::uint32_t b) {
    ++comparisons;
    return a < b;
  });
  return comparisons;
}

/// Sorts `v` by insertion; returns the comparisons made.
inline std::int64_t insertion_sort(std::vector<std::uint32_t>& v) {
  std::int64_t comparisons = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    for (std::size_t j = i; j > 0; --j) {
      ++comparisons;
      if (!(v[j] < v[j - 1])) break;
      std::swap(v[j], v[j - 1]);
    }
  }
  return comparisons;
}

}  // namespace example
