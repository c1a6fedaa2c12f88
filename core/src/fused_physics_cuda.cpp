#include "fused_physics_cuda.h"

#include "autograd_keep_alive.h"
#include "own_cuda_kernels.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/custom_function.h>

#include <utility>

namespace recon::detail {

class FusedL1PhysicsCuda {
 public:
  explicit FusedL1PhysicsCuda(const FusedPhysicsSetup& s) : n_(s.grid), rows_(s.first ? 1 : 2) {
    TORCH_CHECK(s.new_target.is_cuda() && s.new_mask.defined(), "fused physics on cuda: needs the targets on the device and the new pupil");
    const auto device = s.new_target.device();
    // The 1/N² of the two unnormalised transforms folded into the pupils, in float32 as the CPU node folds it.
    const float fold = 1.0f / static_cast<float>(n_ * n_);
    auto pupil = [&](const at::Tensor& mask) { return mask.to(device, at::kFloat) * fold; };
    const double count = static_cast<double>(n_ * n_);
    if (s.first) {
      pupils_ = pupil(s.new_mask).unsqueeze(0).contiguous();
      targets_ = s.new_target.to(at::kFloat).unsqueeze(0).contiguous();
      scales_ = at::tensor({1.0 / (count * s.new_normaliser)}, at::kDouble).to(device);
    } else {
      pupils_ = at::stack({pupil(s.old_mask), pupil(s.new_mask)}).contiguous();
      targets_ = at::stack({s.old_target.to(device, at::kFloat), s.new_target.to(at::kFloat)}).contiguous();
      scales_ = at::tensor({1.0 / (count * s.old_normaliser), 1.0 / (count * s.new_normaliser)}, at::kDouble).to(device);
    }
    floats_ = at::TensorOptions().dtype(at::kFloat).device(device);
  }

  uint64_t generation() const { return generation_; }

  /// The losses, and the residual images its backward needs. Scratch comes from LibTorch's caching allocator per
  /// call, so that a sample keeps only its pupils and targets between steps.
  std::pair<at::Tensor, at::Tensor> forward(const at::Tensor& box, int64_t offset) {
    const int64_t s = box.size(0);
    TORCH_CHECK(offset >= 0 && offset + s <= n_, "fused physics: the object box does not fit the grid");
    TORCH_CHECK(box.device() == pupils_.device(), "fused physics: the object is on ", box.device(), ", the sample on ",
                pupils_.device());
    ++generation_;
    pending_ = true;
    auto losses = at::empty({2}, floats_);
    auto spectrum = at::empty({n_, n_, 2}, floats_);
    auto images = at::empty({rows_, n_, n_, 2}, floats_);
    auto partials = at::empty({rows_, cuda::l1_physics_partials_per_row(n_)}, floats_.dtype(at::kDouble));
    cuda::l1_physics_forward(n_, rows_, box.data_ptr<float>(), s, offset, pupils_.data_ptr<float>(), targets_.data_ptr<float>(),
                             scales_.data_ptr<double>(), spectrum.data_ptr<float>(), images.data_ptr<float>(),
                             partials.data_ptr<double>(), losses.data_ptr<float>());
    return {losses, images};
  }

  at::Tensor backward(uint64_t generation, const at::Tensor& grad_losses, at::Tensor& images, int64_t box, int64_t offset) {
    TORCH_CHECK(pending_ && generation == generation_,
                "fused physics: backward of a stale forward (another forward ran in between, or backward ran twice)");
    pending_ = false;
    auto g = grad_losses.to(pupils_.device(), at::kFloat).contiguous();
    auto spectrum = at::empty({n_, n_, 2}, floats_);
    auto grad = at::empty({box, box}, floats_);
    cuda::l1_physics_backward(n_, rows_, g.data_ptr<float>(), pupils_.data_ptr<float>(), images.data_ptr<float>(),
                              spectrum.data_ptr<float>(), box, offset, grad.data_ptr<float>());
    return grad;
  }

 private:
  const int64_t n_;
  const int64_t rows_;  // 2: old, new; 1: the first sample's one row
  at::Tensor pupils_, targets_, scales_;
  at::TensorOptions floats_;
  uint64_t generation_ = 0;
  bool pending_ = false;
};

namespace {

struct FusedPhysicsCudaNode : torch::autograd::Function<FusedPhysicsCudaNode> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& object, int64_t offset,
                            const std::shared_ptr<FusedL1PhysicsCuda>& physics) {
    auto box = object.detach().contiguous();
    TORCH_CHECK(box.dim() == 2 && box.size(0) == box.size(1) && box.scalar_type() == at::kFloat,
                "fused physics: the object must be a square float32 matrix");
    auto [losses, images] = physics->forward(box, offset);
    ctx->saved_data["images"] = images;  // the residuals, transformed in place by backward
    ctx->saved_data["generation"] = static_cast<int64_t>(physics->generation());
    ctx->saved_data["box"] = box.size(0);
    ctx->saved_data["offset"] = offset;
    keep_alive(ctx, "physics", physics);
    return losses;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    auto images = ctx->saved_data["images"].toTensor();
    auto grad = kept<FusedL1PhysicsCuda>(ctx, "physics")
                    ->backward(static_cast<uint64_t>(ctx->saved_data["generation"].toInt()), grads[0], images,
                               ctx->saved_data["box"].toInt(), ctx->saved_data["offset"].toInt());
    ctx->saved_data.erase("images");
    return {grad, torch::autograd::Variable(), torch::autograd::Variable()};
  }
};

}  // namespace

std::shared_ptr<FusedL1PhysicsCuda> make_fused_l1_physics_cuda(const FusedPhysicsSetup& setup) {
  TORCH_CHECK(kOwnCudaKernels, "fused physics on cuda: this core was compiled without nvcc");
  return std::make_shared<FusedL1PhysicsCuda>(setup);
}

at::Tensor fused_l1_physics_cuda(const at::Tensor& object, int64_t offset, const std::shared_ptr<FusedL1PhysicsCuda>& physics) {
  return FusedPhysicsCudaNode::apply(object, offset, physics);
}

}  // namespace recon::detail
