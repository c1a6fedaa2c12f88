#pragma once
// The optimized pipeline's own loops on LibTorch's intra-op threads (recon::set_threads, at::get_num_threads()).
//
// Contract of for_blocks(count, grain, body): body(begin, end) is called on disjoint ranges that together cover
// [0, count), possibly at the same time on different threads. A body writes only what its own indices own and takes
// every sum over its indices in the order the single-thread loop does, and a sum across ranges is taken afterwards in
// index order (sum_in_order), so results are the same bits at every thread count. With one thread, or fewer than
// `grain` indices, body runs once, inline, on [0, count): the single-thread code path, unchanged. `grain` is the
// fewest indices worth a thread's start (a few microseconds): a range is split only into pieces at least this long.
#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdint>

namespace recon::detail {

template <typename Body>
void for_blocks(int64_t count, int64_t grain, const Body& body) {
  if (count > 0) at::parallel_for(0, count, grain, body);
}

/// The work one thread is started for, in multiply-adds (tens of microseconds): a parallel region costs a few.
inline constexpr int64_t kMultiplyAddsPerTask = int64_t{1} << 18;

/// The grain of for_blocks for indices of `multiply_adds` each: at least one index, about kMultiplyAddsPerTask a task.
inline int64_t grain_for(int64_t multiply_adds) {
  return multiply_adds >= kMultiplyAddsPerTask ? 1 : kMultiplyAddsPerTask / std::max<int64_t>(1, multiply_adds);
}

/// for_blocks with a body called once per index.
template <typename Body>
void for_each_index(int64_t count, int64_t grain, const Body& body) {
  for_blocks(count, grain, [&body](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) body(i);
  });
}

/// Σ parts[i] for i < count, in index order: the sequential sum of partial results computed apart.
inline double sum_in_order(const double* parts, int64_t count) {
  double sum = 0.0;
  for (int64_t i = 0; i < count; ++i) sum += parts[i];
  return sum;
}

}  // namespace recon::detail
