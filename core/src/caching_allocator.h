#pragma once
// A caching CPU allocator for the optimized pipeline's step temporaries (the CPU counterpart of the CUDA caching
// allocator PyTorch uses on GPUs). A training step allocates and frees the same ~40 large buffers every step; with
// glibc's default policy those above the mmap/trim thresholds go back to the kernel and come back as fresh zeroed
// pages: ~2,300 page faults (~9 MB) per step at N=512, several ms. Blocks of ≥ 64 KiB freed inside a scope are kept
// and handed out again for the same size; smaller ones are allocated and freed directly.
//
// Contracts: process-wide (LibTorch has one CPU allocator); only active between construction and destruction of a
// CachingAllocatorScope (nestable); blocks freed after the last scope closes go back to the system, and the cache is
// emptied when it closes. Thread-safe. Changes where memory comes from, never any value.
namespace recon::detail {

class CachingAllocatorScope {
 public:
  CachingAllocatorScope();
  ~CachingAllocatorScope();
  CachingAllocatorScope(const CachingAllocatorScope&) = delete;
  CachingAllocatorScope& operator=(const CachingAllocatorScope&) = delete;

  /// Whether the caching allocator is LibTorch's CPU allocator right now.
  static bool active();
};

}  // namespace recon::detail
