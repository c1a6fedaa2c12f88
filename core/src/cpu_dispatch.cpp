#include "cpu_dispatch.h"

#include <atomic>

namespace recon::detail {
namespace {

bool cpu_runs_wide_kernels() {
#if RECON_WIDE_KERNELS_BUILT
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v4") != 0;
  }();
  return supported;
#else
  return false;
#endif
}

std::atomic<bool>& wide_choice() {
  static std::atomic<bool> choice{cpu_runs_wide_kernels()};
  return choice;
}

}  // namespace

bool wide_kernels() { return wide_choice().load(std::memory_order_relaxed); }

bool set_wide_kernels(bool wide) {
  const bool choice = wide && cpu_runs_wide_kernels();
  wide_choice().store(choice, std::memory_order_relaxed);
  return choice;
}

}  // namespace recon::detail
