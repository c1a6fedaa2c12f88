#include "fftw_rows.h"

#include <fftw3.h>

#include <algorithm>
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
  // Plans are made on scratch rows of the same alignment as the rows they will run on (fftwf_malloc's).
  AlignedBuffer<cfloat> row(static_cast<size_t>(n));
  AlignedBuffer<float> real(static_cast<size_t>(n));
  AlignedBuffer<cfloat> half(static_cast<size_t>(n / 2 + 1));
  const int len = static_cast<int>(n);
  forward_plan_ = fftwf_plan_dft_1d(len, as_fftw(row.data()), as_fftw(row.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  inverse_plan_ = fftwf_plan_dft_1d(len, as_fftw(row.data()), as_fftw(row.data()), FFTW_BACKWARD, FFTW_ESTIMATE);
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

void RowTransforms::forward(cfloat* row) const { fftwf_execute_dft(static_cast<fftwf_plan>(forward_plan_), as_fftw(row), as_fftw(row)); }

void RowTransforms::inverse(cfloat* row) const { fftwf_execute_dft(static_cast<fftwf_plan>(inverse_plan_), as_fftw(row), as_fftw(row)); }

void RowTransforms::forward_real(const float* in, cfloat* out) const {
  fftwf_execute_dft_r2c(static_cast<fftwf_plan>(real_plan_), const_cast<float*>(in), as_fftw(out));
}

void transpose(const cfloat* src, int64_t src_stride, int64_t rows, int64_t cols, cfloat* dst, int64_t dst_stride) {
  constexpr int64_t kBlock = 16;  // 16 × 16 complex = 2 KiB per block side: both tiles stay in L1
  for (int64_t r0 = 0; r0 < rows; r0 += kBlock) {
    const int64_t r1 = std::min(rows, r0 + kBlock);
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
      const int64_t c1 = std::min(cols, c0 + kBlock);
      for (int64_t r = r0; r < r1; ++r) {
        const cfloat* s = src + r * src_stride;
        for (int64_t c = c0; c < c1; ++c) dst[c * dst_stride + r] = s[c];
      }
    }
  }
}

}  // namespace recon::detail
