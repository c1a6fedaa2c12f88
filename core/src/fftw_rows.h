#pragma once
// Length-N transforms of single contiguous rows with FFTW (single precision), the building block of the fused
// physics step: every 2-D transform there is written as row passes and explicit transposes, because FFTW's
// strided column passes over 4 KiB-stride rows are several times slower here than row passes plus a transpose.
//
// Contracts: plans are made once per length with FFTW_ESTIMATE (no timing-based planning, so results are
// bit-identical run to run) and shared by all threads; execution is thread-safe (each thread transforms through a
// scratch row of its own, kept at the longest length it has used until the thread ends). Transforms are unnormalised.
// Rows passed in must start at a 64-byte aligned address (every row of an AlignedBuffer whose row length is a
// multiple of 16 elements does).
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace recon::detail {

using cfloat = std::complex<float>;

/// A zero-initialised, 64-byte aligned array of T, owned.
template <typename T>
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t count);
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const;
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

/// The three row transforms of length n the physics step needs.
class RowTransforms {
 public:
  /// The process-wide plans for length n (made on first use, under a lock: FFTW's planner is not thread-safe).
  static const RowTransforms& of_length(int64_t n);

  int64_t length() const { return n_; }
  /// In place: row[k] ← Σ_b row[b] e^{−2πi kb/n}.
  void forward(cfloat* row) const;
  /// In place: row[b] ← Σ_k row[k] e^{+2πi kb/n}.
  void inverse(cfloat* row) const;
  /// out[k] = Σ_b in[b] e^{−2πi kb/n} for k = 0..n/2 (the other half is the conjugate mirror).
  void forward_real(const float* in, cfloat* out) const;

  RowTransforms(const RowTransforms&) = delete;
  RowTransforms& operator=(const RowTransforms&) = delete;
  ~RowTransforms();

 private:
  explicit RowTransforms(int64_t n);
  int64_t n_;
  void* forward_plan_;
  void* inverse_plan_;
  void* real_plan_;
};

/// dst[c * dst_stride + r] = src[r * src_stride + c] for r < rows, c < cols (cache-blocked).
void transpose(const cfloat* src, int64_t src_stride, int64_t rows, int64_t cols, cfloat* dst, int64_t dst_stride);

}  // namespace recon::detail
