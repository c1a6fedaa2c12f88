#include "recon/runtime.h"

#include "blas_kernels.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <torch/version.h>

#include <fstream>
#include <stdexcept>

namespace recon {

void set_threads(int64_t threads) {
  if (threads < 1) throw std::invalid_argument("threads = " + std::to_string(threads) + ", must be >= 1");
  choose_blas_kernels();
  at::set_num_threads(static_cast<int>(threads));
}

void seed_everything(uint64_t seed) { at::manual_seed(seed); }

RuntimeInfo runtime_info() {
  RuntimeInfo info;
  info.torch_version = TORCH_VERSION;
  info.threads = at::get_num_threads();
  info.blas_kernels = detail::loaded_blas_kernels();
  // ATen reports its kernel dispatch level only inside its configuration text ("CPU capability usage: AVX2").
  const std::string config = at::show_config();
  const std::string key = "CPU capability usage: ";
  const auto at_key = config.find(key);
  if (at_key != std::string::npos) {
    const auto begin = at_key + key.size();
    info.cpu_capability = config.substr(begin, config.find('\n', begin) - begin);
  }
  // The CPU model is read from the kernel's description of the machine, not from a project file.
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) info.cpu_model = line.substr(colon + 2);
      break;
    }
  }
  return info;
}

}  // namespace recon
