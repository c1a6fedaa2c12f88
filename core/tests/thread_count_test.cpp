// Contract: the optimized pipeline's own loops give the same bits at every thread count (recon::set_threads): each
// thread writes only its own rows or channels and every sum across threads is taken in index order. Checked on the
// loss and the input gradient of each own kernel alone (a whole step also runs LibTorch's and BLAS's operations,
// whose splits are theirs), at 1, 2 and 3 threads, on sizes where every loop is split.
#include "recon/aperture.h"
#include "recon/measured_sample.h"
#include "recon/pipeline.h"
#include "recon/runtime.h"
#include "recon/sampling.h"
#include "recon/targets.h"
#include "test_util.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

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

}  // namespace

TEST(thread_count, the_fused_physics_gives_the_same_bits_at_every_thread_count) {
  const auto one = physics_at(1);
  for (const int threads : {2, 3}) expect_same_bits(physics_at(threads), one, threads);
}
