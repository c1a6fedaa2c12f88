#pragma once
// The one place where the core meets the differences between the LibTorch releases it builds with: Debian's CPU
// LibTorch 1.13 and the CUDA LibTorch 2.x of a GPU machine. Everything else is written against the API the two share.
#include <ATen/autocast_mode.h>
#include <torch/version.h>

/// True when the LibTorch being compiled against is at least major.minor.
#define RECON_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

// c10::Allocator: 2.3 made allocate() non-const and added copy_data(), which every allocator must define.
#if RECON_TORCH_AT_LEAST(2, 3)
#define RECON_ALLOCATE_QUALIFIER
#define RECON_ALLOCATOR_COPY_DATA \
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
#else
#define RECON_ALLOCATE_QUALIFIER const
#define RECON_ALLOCATOR_COPY_DATA
#endif

namespace recon::detail {

/// LibTorch's autocast for CUDA operations, to `dtype`, for the life of the object (2.4 gave the functions a device
/// argument). On exit the previous state is restored and the cast cache cleared: the cache holds the weights' casts,
/// which the next update makes stale.
class CudaAutocast {
 public:
  explicit CudaAutocast(at::ScalarType dtype) {
#if RECON_TORCH_AT_LEAST(2, 4)
    was_enabled_ = at::autocast::is_autocast_enabled(at::kCUDA);
    previous_dtype_ = at::autocast::get_autocast_dtype(at::kCUDA);
    at::autocast::set_autocast_dtype(at::kCUDA, dtype);
    at::autocast::set_autocast_enabled(at::kCUDA, true);
#else
    was_enabled_ = at::autocast::is_enabled();
    previous_dtype_ = at::autocast::get_autocast_gpu_dtype();
    at::autocast::set_autocast_gpu_dtype(dtype);
    at::autocast::set_enabled(true);
#endif
    at::autocast::increment_nesting();
  }
  ~CudaAutocast() {
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
#if RECON_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_enabled(at::kCUDA, was_enabled_);
    at::autocast::set_autocast_dtype(at::kCUDA, previous_dtype_);
#else
    at::autocast::set_enabled(was_enabled_);
    at::autocast::set_autocast_gpu_dtype(previous_dtype_);
#endif
  }
  CudaAutocast(const CudaAutocast&) = delete;
  CudaAutocast& operator=(const CudaAutocast&) = delete;

 private:
  bool was_enabled_;
  at::ScalarType previous_dtype_;
};

}  // namespace recon::detail
