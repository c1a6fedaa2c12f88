#pragma once
// What a GPU measurement must record and the two readings LibTorch does not give portably across its releases: time on
// the device's own clock (CUDA events) and the device memory a process holds. A host-side interface with no CUDA
// types, so that callers and tests compile without the CUDA headers; built wherever nvcc is found.
#include <cstddef>
#include <string>

namespace recon::cuda {

/// The current device as a result must name it.
struct DeviceDescription {
  std::string name;             ///< e.g. "NVIDIA H100 80GB HBM3"
  std::string compute_capability;  ///< e.g. "9.0"
  int driver_version = 0;       ///< CUDA version the driver supports, e.g. 13000
  int runtime_version = 0;      ///< the CUDA runtime this code was linked with, e.g. 13000
  std::size_t total_bytes = 0;  ///< device memory
};

/// Throws std::runtime_error with the runtime's reason when there is no usable device.
DeviceDescription describe_device();

/// Bytes of device memory in use on the current device (total − free, every process and the driver included):
/// differences between two readings in one process are what it took in between.
std::size_t device_bytes_in_use();

/// Waits until the device has finished all work queued so far.
void synchronize();

/// Elapsed device time between start() and stop(), recorded on the legacy default stream, the stream LibTorch's
/// operations run on unless told otherwise: the device's own clock, not the host's.
/// Example: EventTimer t; t.start(); run(); double ms = t.stop_ms();
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start();
  /// Records the stop event, waits for it and returns the milliseconds since start().
  double stop_ms();

 private:
  void* start_ = nullptr;  // cudaEvent_t, kept opaque
  void* stop_ = nullptr;
};

}  // namespace recon::cuda
