#include "fftw_rows.h"

#include "cpu_dispatch.h"

#include <fftw3.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>

namespace recon::detail {
namespace {

std::mutex& planner_lock() {
  static std::mutex lock;
  return lock;
}

fftwf_complex* as_fftw(cfloat* p) { return reinterpret_cast<fftwf_complex*>(p); }

}  // namespace

template <typename T>
AlignedBuffer<T>::AlignedBuffer(size_t count) : size_(count) {
  void* p = fftwf_malloc(std::max<size_t>(count, 1) * sizeof(T));
  if (p == nullptr) throw std::bad_alloc();
  std::fill_n(static_cast<T*>(p), count, T{});
  data_.reset(static_cast<T*>(p));
}

template <typename T>
void AlignedBuffer<T>::Free::operator()(T* p) const {
  fftwf_free(p);
}

template class AlignedBuffer<float>;
template class AlignedBuffer<cfloat>;

RowTransforms::RowTransforms(int64_t n) : n_(n) {
  // Plans are made on scratch rows of the same alignment as the rows they will run on (fftwf_malloc's). The complex
  // plans are out of place (see forward()).
  AlignedBuffer<cfloat> row(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  AlignedBuffer<float> real(static_cast<size_t>(n));
  AlignedBuffer<cfloat> half(static_cast<size_t>(n / 2 + 1));
  const int len = static_cast<int>(n);
  forward_plan_ = fftwf_plan_dft_1d(len, as_fftw(row.data()), as_fftw(out.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  inverse_plan_ = fftwf_plan_dft_1d(len, as_fftw(row.data()), as_fftw(out.data()), FFTW_BACKWARD, FFTW_ESTIMATE);
  real_plan_ = fftwf_plan_dft_r2c_1d(len, real.data(), as_fftw(half.data()), FFTW_ESTIMATE);
  if (!forward_plan_ || !inverse_plan_ || !real_plan_) throw std::runtime_error("FFTW could not plan a transform of this length");
}

RowTransforms::~RowTransforms() {
  std::lock_guard<std::mutex> guard(planner_lock());
  fftwf_destroy_plan(static_cast<fftwf_plan>(forward_plan_));
  fftwf_destroy_plan(static_cast<fftwf_plan>(inverse_plan_));
  fftwf_destroy_plan(static_cast<fftwf_plan>(real_plan_));
}

const RowTransforms& RowTransforms::of_length(int64_t n) {
  // Plans live for the whole process (a handful of lengths at most); never destroyed, so no exit-order issues.
  static auto* plans = new std::map<int64_t, std::unique_ptr<RowTransforms>>();
  std::lock_guard<std::mutex> guard(planner_lock());
  auto& slot = (*plans)[n];
  if (!slot) slot.reset(new RowTransforms(n));
  return *slot;
}

// The in-place transforms run the out-of-place plan into this thread's scratch row and copy the result back. For an
// in-place transform FFTW_ESTIMATE plans either the same codelets behind a buffered copy with a malloc per call
// (lengths 256 and 512: the same bits, slower) or another decomposition with an SSE2 codelet (128: float rounding,
// slower still); out of place it runs the codelets directly. Measurements: docs/decisions/
// 2026-11-27-out-of-place-row-transform-plans.md.
namespace {
void through_scratch(void* plan, cfloat* row, int64_t n) {
  thread_local AlignedBuffer<cfloat> scratch;
  if (scratch.size() < static_cast<size_t>(n)) scratch = AlignedBuffer<cfloat>(static_cast<size_t>(n));
  fftwf_execute_dft(static_cast<fftwf_plan>(plan), as_fftw(row), as_fftw(scratch.data()));
  std::copy_n(scratch.data(), n, row);
}
}  // namespace

void RowTransforms::forward(cfloat* row) const { through_scratch(forward_plan_, row, n_); }

void RowTransforms::inverse(cfloat* row) const { through_scratch(inverse_plan_, row, n_); }

void RowTransforms::forward_real(const float* in, cfloat* out) const {
  fftwf_execute_dft_r2c(static_cast<fftwf_plan>(real_plan_), const_cast<float*>(in), as_fftw(out));
}

namespace {

// Four complex floats as four 64-bit lanes: one AVX register in the x86-64-v3 clone of transpose(), two SSE
// registers in the baseline one. Only moved and shuffled, never computed with, so every bit pattern passes unchanged.
typedef long long Lanes4 __attribute__((vector_size(32)));

// (Loaded through a reference: a 32-byte vector returned by value from a function built without AVX changes the ABI.)
__attribute__((always_inline)) inline void load4(Lanes4& v, const cfloat* p) { std::memcpy(&v, static_cast<const void*>(p), sizeof v); }
__attribute__((always_inline)) inline void store4(cfloat* p, const Lanes4& v) { std::memcpy(static_cast<void*>(p), &v, sizeof v); }

// The 4 × 4 block at src (rows src_stride apart) written transposed at dst (rows dst_stride apart).
__attribute__((always_inline)) inline void transpose4(const cfloat* src, int64_t src_stride, cfloat* dst, int64_t dst_stride) {
  Lanes4 a, b, c, d;
  load4(a, src);
  load4(b, src + src_stride);
  load4(c, src + 2 * src_stride);
  load4(d, src + 3 * src_stride);
  const Lanes4 ab_even = __builtin_shufflevector(a, b, 0, 4, 2, 6), ab_odd = __builtin_shufflevector(a, b, 1, 5, 3, 7);
  const Lanes4 cd_even = __builtin_shufflevector(c, d, 0, 4, 2, 6), cd_odd = __builtin_shufflevector(c, d, 1, 5, 3, 7);
  store4(dst, __builtin_shufflevector(ab_even, cd_even, 0, 1, 4, 5));
  store4(dst + dst_stride, __builtin_shufflevector(ab_odd, cd_odd, 0, 1, 4, 5));
  store4(dst + 2 * dst_stride, __builtin_shufflevector(ab_even, cd_even, 2, 3, 6, 7));
  store4(dst + 3 * dst_stride, __builtin_shufflevector(ab_odd, cd_odd, 2, 3, 6, 7));
}

}  // namespace

RECON_VECTOR_KERNEL void transpose(const cfloat* src, int64_t src_stride, int64_t rows, int64_t cols, cfloat* dst, int64_t dst_stride) {
  // 8 × 8 tiles, each destination row written contiguously. The strides here are 4 KiB multiples (512 complex
  // floats), so every row of a tile maps to the same L1 set: 8 rows fit its 8 ways, 16 thrash (measured on a 512²
  // transpose: 0.17 ms with 8 × 8 write-ordered tiles, 0.70 ms with 16 × 16 read-ordered ones). A whole tile moves as
  // four 4 × 4 blocks in registers; tiles cut by the edges element by element.
  constexpr int64_t kTile = 8;
  for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
    const int64_t c1 = std::min(cols, c0 + kTile);
    for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
      const int64_t r1 = std::min(rows, r0 + kTile);
      if (c1 - c0 == kTile && r1 - r0 == kTile) {
        for (int64_t c = c0; c < c1; c += 4)
          for (int64_t r = r0; r < r1; r += 4) transpose4(src + r * src_stride + c, src_stride, dst + c * dst_stride + r, dst_stride);
        continue;
      }
      for (int64_t c = c0; c < c1; ++c) {
        cfloat* d = dst + c * dst_stride;
        for (int64_t r = r0; r < r1; ++r) d[r] = src[r * src_stride + c];
      }
    }
  }
}

}  // namespace recon::detail
