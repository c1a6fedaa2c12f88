#include "pipeline_kernels.h"

#include <cuda_runtime.h>
#include <cufft.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace recon::cuda {
namespace {

constexpr int kThreads = 256;       // every kernel's block; the reductions' trees assume it
constexpr int kPartialBlocks = 128;  // blocks per row of the L1 residual: enough to fill the device at N ≥ 256

void check_launch(const char* what) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

void check(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS) throw std::runtime_error(std::string(what) + ": cuFFT error " + std::to_string(static_cast<int>(status)));
}

int blocks_for(int64_t count) { return static_cast<int>((count + kThreads - 1) / kThreads); }

// One batched 2-D C2C plan per (N, batch) for the life of the process: planning costs far more than a transform.
cufftHandle plan_for(int64_t n, int64_t batch) {
  static std::mutex mutex;
  static std::map<std::pair<int64_t, int64_t>, cufftHandle> plans;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(n, batch);
  auto found = plans.find(key);
  if (found != plans.end()) return found->second;
  cufftHandle plan = 0;
  int dims[2] = {static_cast<int>(n), static_cast<int>(n)};
  check(cufftPlanMany(&plan, 2, dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, static_cast<int>(batch)), "cufftPlanMany");
  plans.emplace(key, plan);
  return plan;
}

// Sum of one double per thread over a block of kThreads, in a fixed tree; the result in thread 0.
__device__ double block_sum(double value) {
  __shared__ double shared[kThreads];
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  const double total = shared[0];
  __syncthreads();  // the array is reused by the next call
  return total;
}

// ---- fused physics ----

// The grid x as complex: the object box at (offset, offset), zero elsewhere.
__global__ void place_box(const float* object, int64_t n, int64_t box, int64_t offset, float2* grid) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n * n) return;
  const int64_t a = i / n - offset, b = i % n - offset;
  const bool inside = a >= 0 && a < box && b >= 0 && b < box;
  grid[i] = make_float2(inside ? object[a * box + b] : 0.0f, 0.0f);
}

// images[r] = pupils[r] ⊙ spectrum for every row.
__global__ void apply_pupils(const float2* spectrum, const float* pupils, int64_t plane, int64_t rows, float2* images) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= plane * rows) return;
  const float2 u = spectrum[i % plane];
  const float m = pupils[i];
  images[i] = make_float2(__fmul_rn(u.x, m), __fmul_rn(u.y, m));
}

// Row blockIdx.y: per block, Σ |(|y| − t)| over its strided share (in double), and y ← sign(|y| − t) · scale · y/|y|.
// The modulus is taken in double and rounded to float once, as the CPU kernel takes it.
__global__ void l1_residual(float2* images, const float* targets, int64_t plane, const double* scales, double* partials) {
  const int64_t row = blockIdx.y;
  float2* y = images + row * plane;
  const float* t = targets + row * plane;
  const float scale = static_cast<float>(scales[row]);
  double sum = 0.0;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < plane;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const float2 value = y[i];
    const float a = static_cast<float>(sqrt(static_cast<double>(value.x) * value.x + static_cast<double>(value.y) * value.y));
    const float r = a - t[i];
    sum += fabsf(r);
    const float sign = static_cast<float>(r > 0.0f) - static_cast<float>(r < 0.0f);
    const float w = a > 0.0f ? __fdiv_rn(__fmul_rn(sign, scale), a) : 0.0f;
    y[i] = make_float2(__fmul_rn(value.x, w), __fmul_rn(value.y, w));
  }
  const double total = block_sum(sum);
  if (threadIdx.x == 0) partials[row * gridDim.x + blockIdx.x] = total;
}

// losses[r] = Σ partials of row r (in block order) · scales[r]; with one row, both losses are that row's.
__global__ void finish_losses(const double* partials, int64_t rows, int64_t per_row, const double* scales, float* losses) {
  if (threadIdx.x != 0) return;
  float out[2];
  for (int64_t r = 0; r < rows; ++r) {
    double total = 0.0;
    for (int64_t k = 0; k < per_row; ++k) total += partials[r * per_row + k];
    out[r] = static_cast<float>(total * scales[r]);
  }
  losses[0] = out[0];
  losses[1] = rows == 2 ? out[1] : out[0];
}

// spectrum = Σ_r g_r · pupils[r] ⊙ images[r]; with one row, g = g_old + g_new (its old row is its new one).
__global__ void combine_rows(const float2* images, const float* pupils, int64_t plane, int64_t rows, const float* grad_losses,
                             float2* spectrum) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= plane) return;
  float re = 0.0f, im = 0.0f;
  if (rows == 1) {
    const float w = __fmul_rn(pupils[i], __fadd_rn(grad_losses[0], grad_losses[1]));
    re = __fmul_rn(images[i].x, w);
    im = __fmul_rn(images[i].y, w);
  } else {
    for (int64_t r = 0; r < 2; ++r) {
      const float w = __fmul_rn(pupils[r * plane + i], grad_losses[r]);
      re = __fadd_rn(re, __fmul_rn(images[r * plane + i].x, w));
      im = __fadd_rn(im, __fmul_rn(images[r * plane + i].y, w));
    }
  }
  spectrum[i] = make_float2(re, im);
}

// grad = Re(grid) on the object box.
__global__ void take_box(const float2* grid, int64_t n, int64_t box, int64_t offset, float* grad) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= box * box) return;
  const int64_t a = i / box, b = i % box;
  grad[i] = grid[(offset + a) * n + offset + b].x;
}

// ---- Adam ----

__device__ __forceinline__ void adam_element(const AdamConstants& c, float g, float& p, float& m, float& v) {
  m = __fadd_rn(__fmul_rn(m, c.b1), __fmul_rn(c.one_minus_b1, g));
  v = __fadd_rn(__fmul_rn(v, c.b2), __fmul_rn(__fmul_rn(c.one_minus_b2, g), g));
  const float denom = __fadd_rn(__fdiv_rn(__fsqrt_rn(v), c.bias2_sqrt), c.eps);
  p = __fsub_rn(p, __fmul_rn(c.step_size, __fdiv_rn(m, denom)));
}

__global__ void adam_dense_kernel(AdamConstants c, int64_t count, float* p, float* m, float* v, const float* g) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) adam_element(c, g[i], p[i], m[i], v[i]);
}

__global__ void adam_rank_one_kernel(AdamConstants c, int64_t rows, int64_t cols, float* p, float* m, float* v,
                                     const float* left, const float* right) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < rows * cols) adam_element(c, __fmul_rn(left[i / cols], right[i % cols]), p[i], m[i], v[i]);
}

// ---- BatchNorm + ReLU: one block per channel ----

__global__ void batch_norm_relu_forward_kernel(int64_t n, const float* x, const float* gamma, const float* beta, double eps,
                                               float* y, double* mean, double* variance, float* invstd) {
  const int64_t c = blockIdx.x;
  const float* xc = x + c * n;
  double s = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += xc[i];
  const double m = block_sum(s) / static_cast<double>(n);
  const float mf = static_cast<float>(m);
  double q = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const float d = __fsub_rn(xc[i], mf);
    q += __fmul_rn(d, d);
  }
  const double var = block_sum(q) / static_cast<double>(n);
  const float is = static_cast<float>(1.0 / sqrt(var + eps));
  if (threadIdx.x == 0) {
    mean[c] = m;
    variance[c] = var;
    invstd[c] = is;
  }
  const float scale = __fmul_rn(is, gamma[c]), shift = __fsub_rn(beta[c], __fmul_rn(mf, scale));
  float* yc = y + c * n;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const float value = __fadd_rn(__fmul_rn(xc[i], scale), shift);
    yc[i] = value > 0.0f ? value : 0.0f;
  }
}

__global__ void batch_norm_update_running_kernel(int64_t channels, int64_t n, const double* mean, const double* variance,
                                                 float* running_mean, float* running_var, int64_t* batches, double momentum) {
  // One thread: C values, and the batch count read and written once.
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  double factor = momentum;
  if (batches != nullptr) {
    *batches += 1;
    if (momentum < 0.0) factor = 1.0 / static_cast<double>(*batches);
  }
  if (factor < 0.0) factor = 0.0;
  const float keep = static_cast<float>(1.0 - factor), take = static_cast<float>(factor);
  const double bessel = static_cast<double>(n) / static_cast<double>(n - 1);
  for (int64_t c = 0; c < channels; ++c) {
    running_mean[c] = __fadd_rn(__fmul_rn(running_mean[c], keep), __fmul_rn(static_cast<float>(mean[c]), take));
    running_var[c] = __fadd_rn(__fmul_rn(running_var[c], keep), __fmul_rn(static_cast<float>(variance[c] * bessel), take));
  }
}

__global__ void batch_norm_relu_backward_kernel(int64_t n, const float* x, const float* y, const float* gy, const float* gamma,
                                                const double* mean, const float* invstd, float* gx, float* ggamma, float* gbeta) {
  const int64_t c = blockIdx.x;
  const float* xc = x + c * n;
  const float* yc = y + c * n;
  const float* gc = gy + c * n;
  const float mf = static_cast<float>(mean[c]), is = invstd[c];
  double sg = 0.0, sgx = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const float g = yc[i] > 0.0f ? gc[i] : 0.0f;
    sg += g;
    sgx += __fmul_rn(g, __fmul_rn(__fsub_rn(xc[i], mf), is));
  }
  const double sum_g = block_sum(sg);
  const double sum_g_xhat = block_sum(sgx);
  if (threadIdx.x == 0) {
    gbeta[c] = static_cast<float>(sum_g);
    ggamma[c] = static_cast<float>(sum_g_xhat);
  }
  if (gx == nullptr) return;
  const float mean_g = static_cast<float>(sum_g / static_cast<double>(n));
  const float mean_g_xhat = static_cast<float>(sum_g_xhat / static_cast<double>(n));
  const float scale = __fmul_rn(gamma[c], is);
  float* out = gx + c * n;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const float g = yc[i] > 0.0f ? gc[i] : 0.0f;
    const float xhat_term = __fmul_rn(__fmul_rn(__fsub_rn(xc[i], mf), is), mean_g_xhat);
    out[i] = __fmul_rn(scale, __fsub_rn(__fsub_rn(g, mean_g), xhat_term));
  }
}

}  // namespace

int64_t l1_physics_partials_per_row(int64_t) { return kPartialBlocks; }

void l1_physics_forward(int64_t n, int64_t rows, const float* object, int64_t box, int64_t offset, const float* pupils,
                        const float* targets, const double* scales, float* spectrum, float* images, double* partials,
                        float* losses) {
  if (rows != 1 && rows != 2) throw std::invalid_argument("l1_physics_forward: rows must be 1 or 2");
  const int64_t plane = n * n;
  auto* u = reinterpret_cast<float2*>(spectrum);
  auto* y = reinterpret_cast<float2*>(images);
  place_box<<<blocks_for(plane), kThreads>>>(object, n, box, offset, u);
  check_launch("fused physics: place_box");
  check(cufftExecC2C(plan_for(n, 1), u, u, CUFFT_FORWARD), "fused physics: forward transform");
  apply_pupils<<<blocks_for(plane * rows), kThreads>>>(u, pupils, plane, rows, y);
  check_launch("fused physics: apply_pupils");
  check(cufftExecC2C(plan_for(n, rows), y, y, CUFFT_INVERSE), "fused physics: inverse transforms");
  l1_residual<<<dim3(kPartialBlocks, static_cast<unsigned>(rows)), kThreads>>>(y, targets, plane, scales, partials);
  check_launch("fused physics: l1_residual");
  finish_losses<<<1, 32>>>(partials, rows, kPartialBlocks, scales, losses);
  check_launch("fused physics: finish_losses");
}

void l1_physics_backward(int64_t n, int64_t rows, const float* grad_losses, const float* pupils, float* images,
                         float* spectrum, int64_t box, int64_t offset, float* grad) {
  const int64_t plane = n * n;
  auto* u = reinterpret_cast<float2*>(spectrum);
  auto* y = reinterpret_cast<float2*>(images);
  check(cufftExecC2C(plan_for(n, rows), y, y, CUFFT_FORWARD), "fused physics: adjoint transforms");
  combine_rows<<<blocks_for(plane), kThreads>>>(y, pupils, plane, rows, grad_losses, u);
  check_launch("fused physics: combine_rows");
  check(cufftExecC2C(plan_for(n, 1), u, u, CUFFT_INVERSE), "fused physics: adjoint of the forward transform");
  take_box<<<blocks_for(box * box), kThreads>>>(u, n, box, offset, grad);
  check_launch("fused physics: take_box");
}

void adam_dense(const AdamConstants& c, int64_t count, float* p, float* m, float* v, const float* g) {
  if (count == 0) return;
  adam_dense_kernel<<<blocks_for(count), kThreads>>>(c, count, p, m, v, g);
  check_launch("fused Adam");
}

void adam_rank_one(const AdamConstants& c, int64_t rows, int64_t cols, float* p, float* m, float* v, const float* left,
                   const float* right) {
  if (rows * cols == 0) return;
  adam_rank_one_kernel<<<blocks_for(rows * cols), kThreads>>>(c, rows, cols, p, m, v, left, right);
  check_launch("fused Adam (rank-one gradient)");
}

void batch_norm_relu_forward(int64_t channels, int64_t n, const float* x, const float* gamma, const float* beta,
                             double eps, float* y, double* mean, double* variance, float* invstd) {
  batch_norm_relu_forward_kernel<<<static_cast<unsigned>(channels), kThreads>>>(n, x, gamma, beta, eps, y, mean, variance, invstd);
  check_launch("BatchNorm + ReLU forward");
}

void batch_norm_update_running(int64_t channels, int64_t n, const double* mean, const double* variance,
                               float* running_mean, float* running_var, int64_t* batches, double momentum) {
  batch_norm_update_running_kernel<<<1, 32>>>(channels, n, mean, variance, running_mean, running_var, batches, momentum);
  check_launch("BatchNorm running statistics");
}

void batch_norm_relu_backward(int64_t channels, int64_t n, const float* x, const float* y, const float* gy,
                              const float* gamma, const double* mean, const float* invstd, float* gx, float* ggamma,
                              float* gbeta) {
  batch_norm_relu_backward_kernel<<<static_cast<unsigned>(channels), kThreads>>>(n, x, y, gy, gamma, mean, invstd, gx, ggamma, gbeta);
  check_launch("BatchNorm + ReLU backward");
}

}  // namespace recon::cuda
