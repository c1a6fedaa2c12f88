#include "device_probe.h"

#include <cuda_runtime.h>

#include <stdexcept>

namespace recon::cuda {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

cudaEvent_t as_event(void* e) { return static_cast<cudaEvent_t>(e); }

}  // namespace

DeviceDescription describe_device() {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  DeviceDescription d;
  d.name = properties.name;
  d.compute_capability = std::to_string(properties.major) + "." + std::to_string(properties.minor);
  d.total_bytes = properties.totalGlobalMem;
  check(cudaDriverGetVersion(&d.driver_version), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&d.runtime_version), "cudaRuntimeGetVersion");
  return d;
}

std::size_t device_bytes_in_use() {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return total - free;
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

EventTimer::EventTimer() {
  cudaEvent_t start = nullptr, stop = nullptr;
  check(cudaEventCreate(&start), "cudaEventCreate");
  if (const auto status = cudaEventCreate(&stop); status != cudaSuccess) {
    cudaEventDestroy(start);
    check(status, "cudaEventCreate");
  }
  start_ = start;
  stop_ = stop;
}

EventTimer::~EventTimer() {
  cudaEventDestroy(as_event(start_));
  cudaEventDestroy(as_event(stop_));
}

void EventTimer::start() { check(cudaEventRecord(as_event(start_), nullptr), "cudaEventRecord"); }

double EventTimer::stop_ms() {
  check(cudaEventRecord(as_event(stop_), nullptr), "cudaEventRecord");
  check(cudaEventSynchronize(as_event(stop_)), "cudaEventSynchronize");
  float ms = 0.0f;
  check(cudaEventElapsedTime(&ms, as_event(start_), as_event(stop_)), "cudaEventElapsedTime");
  return static_cast<double>(ms);
}

}  // namespace recon::cuda
