// The interface of core/cuda/pipeline_kernels.h in a core compiled without nvcc: every function refuses with the reason.
#include "pipeline_kernels.h"

#include <stdexcept>
#include <string>

namespace recon::cuda {
namespace {

[[noreturn]] void absent(const char* what) {
  throw std::logic_error(std::string(what) + ": this core was compiled without nvcc, so it has no CUDA kernels of its own");
}

}  // namespace

int64_t l1_physics_partials_per_row(int64_t) { absent("fused physics"); }
void l1_physics_forward(int64_t, int64_t, const float*, int64_t, int64_t, const float*, const float*, const double*, float*,
                        float*, double*, float*) {
  absent("fused physics");
}
void l1_physics_backward(int64_t, int64_t, const float*, const float*, float*, float*, int64_t, int64_t, float*) {
  absent("fused physics");
}
void adam_dense(const AdamConstants&, int64_t, float*, float*, float*, const float*) { absent("fused Adam"); }
void adam_rank_one(const AdamConstants&, int64_t, int64_t, float*, float*, float*, const float*, const float*) {
  absent("fused Adam");
}
void batch_norm_relu_forward(int64_t, int64_t, const float*, const float*, const float*, double, float*, double*, double*,
                             float*) {
  absent("BatchNorm + ReLU");
}
void batch_norm_update_running(int64_t, int64_t, const double*, const double*, float*, float*, int64_t*, double) {
  absent("BatchNorm + ReLU");
}
void batch_norm_relu_backward(int64_t, int64_t, const float*, const float*, const float*, const float*, const double*,
                              const float*, float*, float*, float*) {
  absent("BatchNorm + ReLU");
}

}  // namespace recon::cuda
