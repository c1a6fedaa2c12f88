// Contract: the optimized pipeline's own loops give the same bits at every thread count (recon::set_threads): each
// thread writes only its own rows or channels and every sum across threads is taken in index order. Checked on the
// loss and the input gradient of each own kernel alone (a whole step also runs LibTorch's and BLAS's operations,
// whose splits are theirs), at 1, 2 and 3 threads, on sizes where every loop is split.
#include "batch_norm_relu.h"   // core/src
#include "small_conv.h"        // core/src
#include "strided_upsample.h"  // core/src

#include "recon/aperture.h"
#include "recon/decoder.h"
#include "recon/measured_sample.h"
#include "recon/optimizer.h"
#include "recon/pipeline.h"
#include "recon/runtime.h"
#include "recon/sampling.h"
#include "recon/targets.h"
#include "test_util.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <string>
#include <vector>

namespace {

// Restores the thread count the test binary runs at.
class ThreadCount {
 public:
  explicit ThreadCount(int threads) : previous_(at::get_num_threads()) { recon::set_threads(threads); }
  ~ThreadCount() { recon::set_threads(previous_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int previous_;
};

struct Outcome {
  at::Tensor losses;    // [old, new]
  at::Tensor gradient;  // of their sum with respect to the object box
};

void expect_same_bits(const Outcome& a, const Outcome& b, int threads) {
  EXPECT_TRUE(at::equal(a.losses, b.losses)) << threads << " threads: losses " << a.losses << " against " << b.losses;
  EXPECT_TRUE(at::equal(a.gradient, b.gradient)) << threads << " threads: the gradient differs, largest by "
                                                  << (a.gradient - b.gradient).abs().max().item<double>();
}

// The fused physics (the optimized objective's default L1 path) of a later sample at N = 256: its rows, transposes
// and residual blocks are split at two and more threads.
Outcome physics_at(int threads) {
  const ThreadCount count(threads);
  constexpr int64_t n = 256, s = 64;
  const auto centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 8, n / 2.0));
  recon::SampleSetup setup;
  setup.ground_truth = recon::synthetic_target(recon::TargetKind::usaf, s, n);
  at::manual_seed(3);
  setup.previous_reconstruction = at::rand({n, n});
  setup.previous_centers.assign(centers.begin(), centers.begin() + 5);
  setup.center = centers[5];
  setup.radius = 12.0;
  setup.first = false;
  setup.index = 5;
  const auto objective = recon::make_objective(setup, recon::PipelineOptions{});
  auto object = at::rand({1, 1, s, s}).requires_grad_(true);
  const auto losses = (*objective)(object);
  (losses.old_row + losses.new_row).backward();
  return {at::stack({losses.old_row, losses.new_row}).detach(), object.grad().clone()};
}

// A differentiable kernel's output and its gradients with respect to every input, at `threads`.
template <typename Kernel>
std::vector<at::Tensor> kernel_at(int threads, std::vector<at::Tensor> inputs, const Kernel& kernel) {
  const ThreadCount count(threads);
  for (auto& input : inputs) input = input.detach().clone().requires_grad_(true);
  const auto out = kernel(inputs);
  at::manual_seed(11);
  (out * at::rand_like(out)).sum().backward();
  std::vector<at::Tensor> results{out.detach()};
  for (const auto& input : inputs) results.push_back(input.grad().clone());
  return results;
}

template <typename Kernel>
void expect_kernel_independent_of_threads(const std::vector<at::Tensor>& inputs, const Kernel& kernel, const std::string& what) {
  const std::vector<at::Tensor> one = kernel_at(1, inputs, kernel);
  for (const int threads : {2, 3}) {
    const std::vector<at::Tensor> many = kernel_at(threads, inputs, kernel);
    for (size_t i = 0; i < one.size(); ++i) {
      EXPECT_TRUE(at::equal(many[i], one[i])) << what << ", " << threads << " threads: "
                                              << (i == 0 ? std::string("output") : "gradient " + std::to_string(i - 1))
                                              << " differs, largest by " << (many[i] - one[i]).abs().max().item<double>();
    }
  }
}

}  // namespace

// The three paths of the stride-2 upsampling: phases with output channels in eights (weight gradient by channels),
// phases with four (by lanes), and the columns of a small image.
TEST(thread_count, the_upsampling_gives_the_same_bits_at_every_thread_count) {
  at::manual_seed(5);
  const auto upsample = [](const std::vector<at::Tensor>& in) { return recon::detail::upsample_k4_s2(in[0], in[1]); };
  expect_kernel_independent_of_threads({at::rand({1, 16, 32, 32}), at::randn({16, 8, 4, 4})}, upsample, "phases, 16 -> 8");
  expect_kernel_independent_of_threads({at::rand({1, 8, 32, 32}), at::randn({8, 4, 4, 4})}, upsample, "phases, 8 -> 4");
  expect_kernel_independent_of_threads({at::rand({1, 64, 8, 8}), at::randn({64, 32, 4, 4})}, upsample, "columns, 64 -> 32");
}

// The 3 × 3 convolutions at the decoder's last layers' sizes: rows of the output and of the input gradient, and the
// (output, input) channel pairs of the weight gradient, split.
TEST(thread_count, the_small_convolutions_give_the_same_bits_at_every_thread_count) {
  at::manual_seed(6);
  const auto conv = [](const std::vector<at::Tensor>& in) { return recon::detail::small_conv3x3(in[0], in[1], in[2], 1); };
  expect_kernel_independent_of_threads({at::rand({1, 4, 64, 64}), at::randn({2, 4, 3, 3}), at::randn({2})}, conv, "4 -> 2");
  expect_kernel_independent_of_threads({at::rand({1, 16, 40, 40}), at::randn({8, 16, 3, 3}), at::randn({8})}, conv, "16 -> 8");
}

// BatchNorm + ReLU per channel, at the last layers' sizes.
TEST(thread_count, batch_norm_and_relu_give_the_same_bits_at_every_thread_count) {
  at::manual_seed(8);
  torch::nn::BatchNorm2d norm(torch::nn::BatchNorm2dOptions(8));
  const auto layer = [&norm](const std::vector<at::Tensor>& in) { return recon::detail::batch_norm_relu(in[0], *norm); };
  expect_kernel_independent_of_threads({at::randn({1, 8, 64, 64})}, layer, "8 channels of 64 x 64");
}

// Fused Adam: two steps of a dense parameter and of a factored one whose gradient is one rank-one term, split by
// elements and by rows.
TEST(thread_count, fused_adam_gives_the_same_bits_at_every_thread_count) {
  at::manual_seed(9);
  const auto dense_start = at::randn({300000}), dense_gradient = at::randn({300000});
  const auto factored_start = at::randn({512, 600}), left = at::randn({512}), right = at::randn({600});
  const auto run = [&](int threads) {
    const ThreadCount count(threads);
    auto dense = dense_start.clone(), factored = factored_start.clone();
    auto gradient = std::make_shared<recon::FactoredGradient>();
    auto adam = recon::make_fused_adam({dense, factored}, 1e-2, {recon::FactoredParameter{factored, gradient}});
    for (int step = 0; step < 2; ++step) {
      adam->zero_grad();
      dense.mutable_grad() = dense_gradient * (step + 1.0);
      gradient->terms.emplace_back(left * (step + 1.0), right);
      adam->step();
    }
    return std::vector<at::Tensor>{dense, factored};
  };
  const auto one = run(1);
  for (const int threads : {2, 3}) {
    const auto many = run(threads);
    EXPECT_TRUE(at::equal(many[0], one[0])) << threads << " threads: the dense parameter differs";
    EXPECT_TRUE(at::equal(many[1], one[1])) << threads << " threads: the factored parameter differs";
  }
}

TEST(thread_count, the_fused_physics_gives_the_same_bits_at_every_thread_count) {
  const auto one = physics_at(1);
  for (const int threads : {2, 3}) expect_same_bits(physics_at(threads), one, threads);
}
