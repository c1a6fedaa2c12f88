// Contract: the physics step's row transforms compute the unnormalised DFT of one row in place, touching nothing
// beside it, in any order of lengths and from several threads at once; transpose moves every element of its block to
// the transposed place, bit for bit, at any shape, and writes nothing else.
#include "fftw_rows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

using recon::detail::AlignedBuffer;
using recon::detail::cfloat;

// Lengths up and then down again: a thread's scratch row, once grown, serves every shorter length after it.
TEST(row_transforms, forward_and_inverse_are_the_unnormalised_dft_of_one_row) {
  for (const int64_t n : {8, 64, 128, 256, 512, 256, 64, 8}) {
    const auto& fft = recon::detail::RowTransforms::of_length(n);
    AlignedBuffer<cfloat> rows(static_cast<size_t>(3 * n));  // the middle row is transformed; its neighbours must stay
    for (int64_t k = 0; k < 3 * n; ++k) rows.data()[k] = cfloat(std::sin(0.37f * k), std::cos(0.11f * k * k));
    const std::vector<cfloat> before(rows.data(), rows.data() + 3 * n);
    for (const bool forward : {true, false}) {
      std::vector<cfloat> row(rows.data() + n, rows.data() + 2 * n);
      if (forward) fft.forward(rows.data() + n);
      else fft.inverse(rows.data() + n);
      double largest_error = 0.0, largest = 0.0;
      for (int64_t k = 0; k < n; ++k) {
        std::complex<double> sum = 0.0;
        for (int64_t b = 0; b < n; ++b) {
          const double angle = (forward ? -2.0 : 2.0) * M_PI * static_cast<double>((k * b) % n) / static_cast<double>(n);
          sum += std::complex<double>(row[static_cast<size_t>(b)]) * std::polar(1.0, angle);
        }
        largest_error = std::max(largest_error, std::abs(sum - std::complex<double>(rows.data()[n + k])));
        largest = std::max(largest, std::abs(sum));
      }
      EXPECT_LT(largest_error, 1e-5 * largest) << "n " << n << (forward ? ", forward" : ", inverse");
      for (int64_t k = 0; k < n; ++k) {
        EXPECT_EQ(rows.data()[k], before[static_cast<size_t>(k)]) << "n " << n << ": the row before was written";
        EXPECT_EQ(rows.data()[2 * n + k], before[static_cast<size_t>(2 * n + k)]) << "n " << n << ": the row after was written";
      }
      std::copy(before.begin() + n, before.begin() + 2 * n, rows.data() + n);
    }
  }
}

// Threads transforming their own rows at the same time get the same bits as one thread alone (the plans are shared,
// each thread's scratch row is its own).
TEST(row_transforms, threads_transforming_at_once_get_the_bits_of_one_thread) {
  constexpr int64_t n = 256, rows_per_thread = 64, threads = 4, rounds = 20;
  const auto& fft = recon::detail::RowTransforms::of_length(n);
  auto fill = [](cfloat* rows, int64_t count, int64_t seed) {
    for (int64_t k = 0; k < count; ++k) rows[k] = cfloat(std::sin(0.01f * static_cast<float>(k + seed)), std::cos(0.03f * static_cast<float>(k * seed + 1)));
  };
  auto work = [&](cfloat* rows) {
    for (int64_t round = 0; round < rounds; ++round)
      for (int64_t r = 0; r < rows_per_thread; ++r) {
        if (round % 2 == 0) fft.forward(rows + r * n);
        else fft.inverse(rows + r * n);
      }
  };
  std::vector<AlignedBuffer<cfloat>> alone, together;
  for (int64_t t = 0; t < threads; ++t) {
    alone.emplace_back(static_cast<size_t>(rows_per_thread * n));
    together.emplace_back(static_cast<size_t>(rows_per_thread * n));
    fill(alone.back().data(), rows_per_thread * n, t + 1);
    fill(together.back().data(), rows_per_thread * n, t + 1);
    work(alone.back().data());
  }
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t) pool.emplace_back(work, together[static_cast<size_t>(t)].data());
  for (auto& thread : pool) thread.join();
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t k = 0; k < rows_per_thread * n; ++k)
      ASSERT_EQ(together[static_cast<size_t>(t)].data()[k], alone[static_cast<size_t>(t)].data()[k]) << "thread " << t << ", element " << k;
}

TEST(row_transforms, transpose_moves_every_element_at_every_shape) {
  const std::vector<int64_t> sizes = {1, 3, 4, 5, 8, 9, 12, 16, 17, 31};
  const cfloat untouched(-7.0f, 7.0f);
  for (const int64_t rows : sizes)
    for (const int64_t cols : sizes) {
      const int64_t src_stride = cols + 3, dst_stride = rows + 5;
      std::vector<cfloat> src(static_cast<size_t>(rows * src_stride)), dst(static_cast<size_t>(cols * dst_stride), untouched);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < src_stride; ++c) src[static_cast<size_t>(r * src_stride + c)] = cfloat(static_cast<float>(r), static_cast<float>(c) + 0.5f);
      recon::detail::transpose(src.data(), src_stride, rows, cols, dst.data(), dst_stride);
      for (int64_t c = 0; c < cols; ++c)
        for (int64_t r = 0; r < dst_stride; ++r) {
          const cfloat expected = r < rows ? src[static_cast<size_t>(r * src_stride + c)] : untouched;
          ASSERT_EQ(dst[static_cast<size_t>(c * dst_stride + r)], expected) << rows << " x " << cols << ", element (" << r << ", " << c << ")";
        }
    }
}

}  // namespace
