#pragma once
// The one place where the core meets the differences between the LibTorch releases it builds with: Debian's CPU
// LibTorch 1.13 and the CUDA LibTorch 2.x of a GPU machine. Everything else is written against the API the two share.
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
