// Interposition of glibc's allocator entry points. The executable's definitions take precedence over libc's
// for every shared library in the process (ELF symbol interposition); each one counts, then calls glibc's
// internal implementation (__libc_*), so memory obtained here is ordinary glibc heap memory and free() and
// malloc_usable_size() keep working on it.
#include "heap_counter.h"

#include <atomic>
#include <cerrno>
#include <cstddef>

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* pointer, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* pointer);
}

namespace {

std::atomic<uint64_t> g_allocations{0};
std::atomic<uint64_t> g_bytes{0};

void* counted(void* pointer, size_t size) {
  if (pointer != nullptr) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    g_bytes.fetch_add(size, std::memory_order_relaxed);
  }
  return pointer;
}

bool is_power_of_two(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

namespace perf {

HeapCounts heap_counts() {
  return {g_allocations.load(std::memory_order_relaxed), g_bytes.load(std::memory_order_relaxed)};
}

}  // namespace perf

extern "C" {

void* malloc(size_t size) { return counted(__libc_malloc(size), size); }

void* calloc(size_t count, size_t size) { return counted(__libc_calloc(count, size), count * size); }

void* realloc(void* pointer, size_t size) { return counted(__libc_realloc(pointer, size), size); }

void free(void* pointer) { __libc_free(pointer); }

void* memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

void* aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (!is_power_of_two(alignment) || alignment % sizeof(void*) != 0) return EINVAL;
  void* pointer = counted(__libc_memalign(alignment, size), size);
  if (pointer == nullptr) return ENOMEM;
  *out = pointer;
  return 0;
}

}  // extern "C"
