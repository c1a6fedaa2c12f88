#include "cufft_measurement.h"

#include <cuda_runtime.h>
#include <cufft.h>

#include <map>
#include <mutex>
#include <stdexcept>

namespace recon::cuda {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

void check(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS) throw std::runtime_error(std::string(what) + ": cuFFT error " + std::to_string(static_cast<int>(status)));
}

// One C2C plan per grid size for the life of the process: planning costs far more than a transform.
cufftHandle plan_for(int n) {
  static std::mutex mutex;
  static std::map<int, cufftHandle> plans;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = plans.find(n);
  if (found != plans.end()) return found->second;
  cufftHandle plan = 0;
  check(cufftPlan2d(&plan, n, n, CUFFT_C2C), "cufftPlan2d");
  plans.emplace(n, plan);
  return plan;
}

__global__ void real_to_complex(const float* in, cufftComplex* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = make_cuFloatComplex(in[i], 0.0f);
}

// Applies the pupil and the 1/N² of the two unnormalised transforms (ortho scaling is 1/N for the pair).
__global__ void apply_mask(cufftComplex* data, const float* mask, float scale, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) data[i] = make_cuFloatComplex(data[i].x * mask[i] * scale, data[i].y * mask[i] * scale);
}

__global__ void modulus(const cufftComplex* in, float* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = hypotf(in[i].x, in[i].y);
}

}  // namespace

bool device_available(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (why != nullptr) *why = status != cudaSuccess ? cudaGetErrorString(status) : "no CUDA device found";
    return false;
  }
  return true;
}

void measure_amplitude(const float* field, const float* mask, float* out, int n) {
  const int count = n * n;
  const size_t real_bytes = sizeof(float) * static_cast<size_t>(count);
  float *d_field = nullptr, *d_mask = nullptr, *d_out = nullptr;
  cufftComplex* d_spectrum = nullptr;
  check(cudaMalloc(&d_field, real_bytes), "cudaMalloc");
  check(cudaMalloc(&d_mask, real_bytes), "cudaMalloc");
  check(cudaMalloc(&d_out, real_bytes), "cudaMalloc");
  check(cudaMalloc(&d_spectrum, sizeof(cufftComplex) * static_cast<size_t>(count)), "cudaMalloc");
  try {
    check(cudaMemcpy(d_field, field, real_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(d_mask, mask, real_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    const int threads = 256, blocks = (count + threads - 1) / threads;
    real_to_complex<<<blocks, threads>>>(d_field, d_spectrum, count);
    const cufftHandle plan = plan_for(n);
    check(cufftExecC2C(plan, d_spectrum, d_spectrum, CUFFT_FORWARD), "cufftExecC2C forward");
    apply_mask<<<blocks, threads>>>(d_spectrum, d_mask, 1.0f / static_cast<float>(count), count);
    check(cufftExecC2C(plan, d_spectrum, d_spectrum, CUFFT_INVERSE), "cufftExecC2C inverse");
    modulus<<<blocks, threads>>>(d_spectrum, d_out, count);
    check(cudaGetLastError(), "kernel launch");
    check(cudaMemcpy(out, d_out, real_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  } catch (...) {
    cudaFree(d_field);
    cudaFree(d_mask);
    cudaFree(d_out);
    cudaFree(d_spectrum);
    throw;
  }
  cudaFree(d_field);
  cudaFree(d_mask);
  cudaFree(d_out);
  cudaFree(d_spectrum);
}

}  // namespace recon::cuda
