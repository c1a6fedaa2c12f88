#include "caching_allocator.h"

#include "torch_compat.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>

#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace recon::detail {
namespace {

constexpr size_t kSmallest = 64 * 1024;  // below this glibc serves from its arenas without page faults: not cached
constexpr size_t kAlignment = 64;        // as LibTorch's default CPU allocator

class CachingCpuAllocator final : public c10::Allocator {
 public:
  // Every block, small or large, comes with a header of kAlignment bytes in front holding its size, so that the
  // deleter needs only the data pointer (LibTorch's raw_allocate/raw_deallocate, used by oneDNN, require that).
  c10::DataPtr allocate(size_t bytes) RECON_ALLOCATE_QUALIFIER override {
    void* base = bytes >= kSmallest ? take(bytes) : nullptr;
    if (base == nullptr && posix_memalign(&base, kAlignment, bytes + kAlignment) != 0) throw std::bad_alloc();
    *static_cast<size_t*>(base) = bytes;
    void* data = static_cast<char*>(base) + kAlignment;
    return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release; }
  RECON_ALLOCATOR_COPY_DATA

  void open() {
    std::lock_guard<std::mutex> guard(lock_);
    if (depth_++ == 0) {
      previous_ = c10::GetCPUAllocator();
      c10::SetCPUAllocator(this, /*priority=*/0);
    }
  }

  void close() {
    std::vector<void*> unused;
    {
      std::lock_guard<std::mutex> guard(lock_);
      if (--depth_ > 0) return;
      if (c10::GetCPUAllocator() == this) c10::SetCPUAllocator(previous_, /*priority=*/0);
      for (auto& [size, blocks] : cache_) unused.insert(unused.end(), blocks.begin(), blocks.end());
      cache_.clear();
    }
    for (void* p : unused) std::free(p);
  }

  bool is_active() const { return c10::GetCPUAllocator() == this; }

  static CachingCpuAllocator& instance() {
    // Never destroyed: tensors holding its blocks may outlive any static destructor order.
    static auto* allocator = new CachingCpuAllocator();
    return *allocator;
  }

 private:
  void* take(size_t bytes) const {
    std::lock_guard<std::mutex> guard(lock_);
    auto it = cache_.find(bytes);
    if (it == cache_.end() || it->second.empty()) return nullptr;
    void* block = it->second.back();
    it->second.pop_back();
    return block;
  }

  static void release(void* data) {
    if (data == nullptr) return;
    void* base = static_cast<char*>(data) - kAlignment;
    instance().put_back(base, *static_cast<size_t*>(base));
  }

  void put_back(void* base, size_t bytes) {
    if (bytes >= kSmallest) {
      std::lock_guard<std::mutex> guard(lock_);
      if (depth_ > 0) {
        cache_[bytes].push_back(base);
        return;
      }
    }
    std::free(base);
  }

  mutable std::mutex lock_;
  mutable std::unordered_map<size_t, std::vector<void*>> cache_;
  int depth_ = 0;
  c10::Allocator* previous_ = nullptr;
};

}  // namespace

CachingAllocatorScope::CachingAllocatorScope() { CachingCpuAllocator::instance().open(); }
CachingAllocatorScope::~CachingAllocatorScope() { CachingCpuAllocator::instance().close(); }
bool CachingAllocatorScope::active() { return CachingCpuAllocator::instance().is_active(); }

}  // namespace recon::detail
