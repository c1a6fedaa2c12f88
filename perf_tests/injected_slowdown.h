#pragma once
// A test-only slowdown, to measure the performance gate's detection power: with the CMake option
// RECON_PERF_INJECT_SLOWDOWN=ON (never in a preset), PERFGATE_INJECT_SLOWDOWN=F makes every optimized training
// step of bench_train_step busy-wait for F times its own duration afterwards (F = 0.10: a 10 % slower step).
// Without the option this header compiles to nothing and the variable is ignored.
#include <chrono>

namespace perf {

#ifdef RECON_PERF_INJECT_SLOWDOWN
/// The requested fraction (≥ 0), read once from PERFGATE_INJECT_SLOWDOWN; 0 when unset.
double injected_slowdown_fraction();

/// Spins until (1 + fraction) × (now − step_start) has passed since step_start.
void spin_after_step(std::chrono::steady_clock::time_point step_start, double fraction);
constexpr bool kSlowdownInjectionBuilt = true;
#else
inline double injected_slowdown_fraction() { return 0.0; }
inline void spin_after_step(std::chrono::steady_clock::time_point, double) {}
constexpr bool kSlowdownInjectionBuilt = false;
#endif

}  // namespace perf
