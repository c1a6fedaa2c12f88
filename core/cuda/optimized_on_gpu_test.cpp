// Contract: the optimized pipeline on a CUDA device computes the reference pipeline's step there, with each of its
// switches flipped as well; its own kernels (fused physics on cuFFT, fused Adam, BatchNorm + ReLU) agree with their CPU
// loops and with the library's layers; a step repeated through one objective is bit-identical (the kernels' reductions are deterministic); a short
// reconstruction ends at the CPU's quality, seed by seed; its device memory does not grow with a run's length; and a
// step is faster than the reference pipeline's on the same device. Without a device, or with a CPU-only LibTorch, every
// test is skipped with the reason. Measurements are reported as gpu_test_support.h describes.
#include "gpu_test_support.h"

#include <chrono>
#include <memory>
#include <utility>

namespace {

using namespace gpu_test;

recon::PipelineOptions optimized_on(recon::ComputeDevice device, recon::OptimizationSwitches switches = {}) {
  recon::PipelineOptions p;
  p.kind = recon::PipelineKind::optimized;
  p.switches = switches;
  p.device = device;
  return p;
}

// The seed workload's decoder (N = 512, S = 128) built for `plan`, with the initial weights of `seed`, on its device.
recon::ProgressiveDecoder decoder_for(const recon::ExecutionPlan& plan, uint64_t seed) {
  auto options = recon::DecoderOptions(512, 128).output_activation(recon::OutputActivation::sigmoid);
  recon::configure_decoder(options, plan);
  recon::seed_everything(seed);
  recon::ProgressiveDecoder decoder(options);
  decoder->to(plan.torch_device());
  return decoder;
}

struct StepDifference {
  double loss = 0.0;      // the larger relative difference of the two row losses
  double gradient = 0.0;  // the largest per-parameter ‖Δg‖/‖g‖
  size_t worst = 0;       // which parameter
  double apart = 0.0;     // fraction of updated parameters moved more than lr/10 apart
};

StepDifference compare(const StepOutcome& a, const StepOutcome& b, double lr) {
  StepDifference d;
  d.loss = std::max(std::abs(a.loss_old - b.loss_old) / std::abs(b.loss_old), std::abs(a.loss_new - b.loss_new) / std::abs(b.loss_new));
  for (size_t i = 0; i < b.gradients.size(); ++i) {
    const double e = relative_l2(a.gradients[i], b.gradients[i]);
    if (e > d.gradient) d.gradient = e, d.worst = i;
  }
  int64_t apart = 0, total = 0;
  for (size_t i = 0; i < b.after.size(); ++i) {
    apart += (((a.after[i] - a.before[i]) - (b.after[i] - b.before[i])).abs() > 0.1 * lr).sum().item<int64_t>();
    total += b.after[i].numel();
  }
  d.apart = static_cast<double>(apart) / static_cast<double>(total);
  return d;
}

// Limits as for the reference pipeline across devices (reference_on_gpu_test.cpp): losses to 1e-4 relative (two
// 512² FFTs rounded by different libraries agree to ~1e-6), gradients to 5e-3 per parameter (a wrong kernel, mask or
// noise draw is order 1 off), at most 1 in 1,000 updated parameters more than lr/10 apart (Adam's first step moves an
// element by ±lr wherever |g| ≫ ε, so only gradients within rounding of zero may flip).
constexpr double kLossLimit = 1e-4, kGradientLimit = 5e-3, kApartLimit = 1e-3, kLr = 1e-3;
// The rows weighted unequally, so that a kernel that swaps or merges their gradients fails.
constexpr double kOldWeight = 0.25;

void expect_close(const std::string& test, const std::string& what, const StepDifference& d) {
  report(test, what + ": losses, gradients (‖Δg‖/‖g‖, parameter), moved apart",
         scientific(d.loss) + ", " + scientific(d.gradient) + " (" + std::to_string(d.worst) + "), " + scientific(d.apart),
         "< " + scientific(kLossLimit) + ", " + scientific(kGradientLimit) + ", " + scientific(kApartLimit));
  EXPECT_LT(d.loss, kLossLimit) << what;
  EXPECT_LT(d.gradient, kGradientLimit) << what << ": parameter " << d.worst;
  EXPECT_LT(d.apart, kApartLimit) << what;
}

TEST(gpu, optimized_plan_runs_its_cuda_kernels) {
  SKIP_WITHOUT_GPU();
  const recon::ExecutionPlan plan(optimized_on(recon::ComputeDevice::cuda));
  EXPECT_TRUE(plan.switches().fused_physics && plan.switches().fused_adam && plan.switches().fused_batchnorm_relu);
  EXPECT_FALSE(plan.switches().blas_upsampling || plan.switches().small_channel_conv || plan.switches().caching_allocator);
  std::string on;
  for (const auto& name : recon::OptimizationSwitches::names())
    if (plan.switches().by_name(name)) on += (on.empty() ? "" : " ") + name;
  report("optimized_plan_runs_its_cuda_kernels", "switches on cuda", on, "");
}

// Every switch's single step on the GPU against the reference pipeline's on the GPU: the default switches, each one
// that runs on CUDA flipped (with what needs it), and none, on the mid-run sample (both rows); the defaults and none
// on the first sample (one row). Switches the plan turns off on CUDA would repeat the defaults and are left out.
TEST(gpu, optimized_step_matches_the_reference_for_every_switch) {
  SKIP_WITHOUT_GPU();
  const auto problem = recon::make_problem(recon::scenario("seed"));
  const auto device = c10::Device(c10::kCUDA);
  const recon::ExecutionPlan reference(reference_on(recon::ComputeDevice::cuda));
  const recon::PipelineScope scope(reference);
  auto first = mid_run_sample(problem, device);
  first.first = true;
  first.previous_centers.clear();
  first.index = 0;
  first.center = problem.centers[0];
  std::vector<std::pair<std::string, recon::OptimizationSwitches>> variants = {{"defaults", {}},
                                                                              {"none", recon::OptimizationSwitches::none()}};
  for (const auto& row : recon::switch_table()) {
    if (row.devices == recon::SwitchDevices::cpu_only) continue;
    variants.emplace_back(row.name + " flipped", recon::OptimizationSwitches{}.toggled(row.name));
  }
  for (const auto& [label, sample] : {std::pair{"mid-run sample", mid_run_sample(problem, device)}, std::pair{"first sample", first}}) {
    auto reference_decoder = decoder_for(reference, 0);
    const auto expected = one_step(reference_decoder, reference, sample, kLr, kOldWeight);
    for (const auto& [name, switches] : variants) {
      if (std::string(label) == "first sample" && name != "defaults" && name != "none") continue;  // the one-row path
      const recon::ExecutionPlan plan(optimized_on(recon::ComputeDevice::cuda, switches));
      auto decoder = decoder_for(plan, 0);
      expect_close("optimized_step_matches_the_reference_for_every_switch", std::string(label) + ", " + name,
                   compare(one_step(decoder, plan, sample, kLr, kOldWeight), expected, kLr));
    }
  }
}

// The optimized pipeline on the GPU against the optimized pipeline on the CPU: the same switches where both have them,
// so the fused physics, Adam and BatchNorm + ReLU kernels are compared with their CPU loops.
TEST(gpu, optimized_step_matches_the_cpus) {
  SKIP_WITHOUT_GPU();
  recon::set_threads(cpu_threads());
  const auto problem = recon::make_problem(recon::scenario("seed"));
  const recon::ExecutionPlan gpu_plan(optimized_on(recon::ComputeDevice::cuda));
  // The CPU runs what the GPU runs (the CPU-only kernels off), so that the comparison is kernel for kernel.
  const recon::ExecutionPlan cpu_plan(optimized_on(recon::ComputeDevice::cpu, gpu_plan.switches()));
  const recon::PipelineScope scope(gpu_plan);
  auto cpu = decoder_for(cpu_plan, 0);
  auto gpu = decoder_for(gpu_plan, 0);
  const auto on_cpu = one_step(cpu, cpu_plan, mid_run_sample(problem, cpu_plan.torch_device()), kLr, kOldWeight);
  const auto on_gpu = one_step(gpu, gpu_plan, mid_run_sample(problem, gpu_plan.torch_device()), kLr, kOldWeight);
  expect_close("optimized_step_matches_the_cpus", "own kernels on both devices", compare(on_gpu, on_cpu, kLr));
}

// The fused Adam kernels against the CPU loops over several steps, a dense parameter and a factored one (rank-one
// gradient), the same gradients on both devices. After one step Adam moves each element by about ±lr whatever its
// moments, so only later steps show the moments' recurrences, the bias corrections and eps. Rounding moves a
// parameter by about its float32 ulp per step (1e-7 here); a wrong term moves it by a fraction of lr (1e-4 or more).
TEST(gpu, fused_adam_kernels_match_the_cpu_loops) {
  SKIP_WITHOUT_GPU();
  constexpr int kSteps = 6;
  constexpr double kLimit = 1e-5;
  recon::seed_everything(7);
  const auto dense0 = at::randn({1000}), factored0 = at::randn({64, 48});
  std::vector<at::Tensor> dense_grads, lefts, rights;
  for (int s = 0; s < kSteps; ++s) {
    dense_grads.push_back(at::randn({1000}) * (s % 2 == 0 ? 1.0 : 1e-3));  // small gradients too, where eps counts
    lefts.push_back(at::randn({64}));
    rights.push_back(at::randn({48}));
  }
  auto run = [&](c10::Device device) {
    auto dense = dense0.to(device).clone().requires_grad_(true);
    auto factored = factored0.to(device).clone().requires_grad_(true);
    auto gradient = std::make_shared<recon::FactoredGradient>();
    auto adam = recon::make_fused_adam({dense, factored}, kLr, {{factored, gradient}});
    for (int s = 0; s < kSteps; ++s) {
      adam->zero_grad();
      dense.mutable_grad() = dense_grads[static_cast<size_t>(s)].to(device);
      gradient->terms.emplace_back(lefts[static_cast<size_t>(s)].to(device), rights[static_cast<size_t>(s)].to(device));
      adam->step();
    }
    return std::pair{dense.detach().cpu(), factored.detach().cpu()};
  };
  const auto [dense_cpu, factored_cpu] = run(c10::Device(c10::kCPU));
  const auto [dense_gpu, factored_gpu] = run(c10::Device(c10::kCUDA));
  const double dense_error = (dense_gpu - dense_cpu).abs().max().item<double>();
  const double factored_error = (factored_gpu - factored_cpu).abs().max().item<double>();
  const double moved = (dense_cpu - dense0).abs().max().item<double>();
  report("fused_adam_kernels_match_the_cpu_loops", "largest |Δp| after 6 steps: dense, rank-one (largest move " + scientific(moved) + ")",
         scientific(dense_error) + ", " + scientific(factored_error), "< " + scientific(kLimit));
  EXPECT_LT(dense_error, kLimit);
  EXPECT_LT(factored_error, kLimit);
  EXPECT_GT(moved, kLr);  // the parameters did move
}

// The fused BatchNorm + ReLU kernels against cuDNN's batch norm and LibTorch's ReLU in a whole decoder on the GPU:
// outputs, every parameter's gradient and every running buffer after one training forward and backward.
TEST(gpu, fused_batchnorm_relu_kernels_match_the_library_on_the_gpu) {
  SKIP_WITHOUT_GPU();
  const auto device = c10::Device(c10::kCUDA);
  const recon::PipelineScope scope(recon::ExecutionPlan(reference_on(recon::ComputeDevice::cuda)));
  auto fused_kernels = recon::OptimizationSwitches::none();
  fused_kernels.fused_batchnorm_relu = true;
  recon::seed_everything(9);
  recon::ProgressiveDecoder plain(recon::DecoderOptions(256, 64));
  recon::seed_everything(9);
  recon::ProgressiveDecoder fused(recon::DecoderOptions(256, 64).kernels(fused_kernels));
  plain->to(device);
  fused->to(device);
  recon::seed_everything(10);
  const auto weights = at::rand({1, 1, 64, 64}).to(device);
  const auto a = plain->forward_object(), b = fused->forward_object();
  (a * weights).pow(2).sum().backward();
  (b * weights).pow(2).sum().backward();
  // Limits: float32 sums of up to 4,096 terms per channel, in double here and in cuDNN's own order there (the CPU
  // kernel's test holds 1e-5 of the largest element against oneDNN). A wrong term of the backward (the mean of the
  // gradient, the x̂ term, the Bessel factor of the running variance) is off by a percent or more.
  constexpr double kOutputLimit = 1e-5, kLayerGradientLimit = 1e-4, kBufferLimit = 1e-5;
  const double output_error = relative_l2(b, a);
  double gradient_error = 0.0, buffer_error = 0.0;
  const auto pp = plain->parameters(), fp = fused->parameters();
  for (size_t i = 0; i < pp.size(); ++i) gradient_error = std::max(gradient_error, relative_l2(fp[i].grad(), pp[i].grad()));
  const auto plain_buffers = plain->named_buffers(), fused_buffers = fused->named_buffers();
  for (const auto& item : plain_buffers) {
    const auto& other = fused_buffers[item.key()];
    if (item.value().is_floating_point()) {
      buffer_error = std::max(buffer_error, relative_l2(other, item.value()));
    } else {
      EXPECT_TRUE(at::equal(other.cpu(), item.value().cpu())) << item.key();
    }
  }
  report("fused_batchnorm_relu_kernels_match_the_library_on_the_gpu", "‖Δ‖/‖·‖: output, largest gradient, largest running buffer",
         scientific(output_error) + ", " + scientific(gradient_error) + ", " + scientific(buffer_error),
         "< " + scientific(kOutputLimit) + ", " + scientific(kLayerGradientLimit) + ", " + scientific(kBufferLimit));
  EXPECT_LT(output_error, kOutputLimit);
  EXPECT_LT(gradient_error, kLayerGradientLimit);
  EXPECT_LT(buffer_error, kBufferLimit);
}

// The same step three times through one objective and from the same weights: bit-identical losses and gradients. The
// kernels' sums run in fixed trees, and cuDNN is held to deterministic algorithms by the pipeline's scope.
TEST(gpu, a_repeated_optimized_step_is_bit_identical) {
  SKIP_WITHOUT_GPU();
  const auto problem = recon::make_problem(recon::scenario("seed"));
  const recon::ExecutionPlan plan(optimized_on(recon::ComputeDevice::cuda));
  const recon::PipelineScope scope(plan);
  auto decoder = decoder_for(plan, 0);
  auto objective = recon::make_objective(mid_run_sample(problem, plan.torch_device()), plan);
  std::vector<std::vector<at::Tensor>> gradients;
  std::vector<std::pair<double, double>> losses;
  for (int repeat = 0; repeat < 3; ++repeat) {
    for (auto& p : decoder->parameters()) p.mutable_grad() = at::Tensor();
    decoder->factored_gradient()->terms.clear();
    const auto l = (*objective)(*decoder);
    (l.old_row + l.new_row).backward();
    decoder->materialize_gradients();
    losses.emplace_back(l.old_row.item<double>(), l.new_row.item<double>());
    gradients.emplace_back();
    for (const auto& p : decoder->parameters()) gradients.back().push_back(p.grad().detach().cpu().clone());
  }
  double worst = 0.0;
  for (int repeat = 1; repeat < 3; ++repeat) {
    EXPECT_EQ(losses[repeat], losses[0]) << "repeat " << repeat;
    for (size_t i = 0; i < gradients[0].size(); ++i) {
      worst = std::max(worst, (gradients[repeat][i] - gradients[0][i]).abs().max().item<double>());
    }
  }
  report("a_repeated_optimized_step_is_bit_identical", "largest gradient difference over 3 repeats", scientific(worst), "= 0");
  EXPECT_EQ(worst, 0.0);
}

// As short_reconstruction_matches_the_cpu_seed_by_seed for the reference pipeline: 200 updates of the dense scene's
// first 10 sub-apertures, each seed on the GPU within 0.25 dB of the same pipeline on the CPU.
TEST(gpu, short_optimized_reconstruction_matches_the_cpu_seed_by_seed) {
  SKIP_WITHOUT_GPU();
  expect_short_runs_match_the_cpu("short_optimized_reconstruction_matches_the_cpu_seed_by_seed",
                                  [](recon::ComputeDevice device) { return optimized_on(device); });
}

TEST(gpu, an_optimized_runs_device_memory_does_not_grow_with_its_length) {
  SKIP_WITHOUT_GPU();
  const auto problem = recon::make_problem(recon::scenario("seed"));
  (void)at::ones({1}, at::TensorOptions().device(c10::kCUDA));
  recon::cuda::synchronize();
  const std::size_t before = recon::cuda::device_bytes_in_use();
  const std::size_t after_short = held_after_run(problem, optimized_on(recon::ComputeDevice::cuda), 5);
  const std::size_t after_long = held_after_run(problem, optimized_on(recon::ComputeDevice::cuda), 20);
  constexpr double kMiB = 1024.0 * 1024.0;
  const double held_mib = static_cast<double>(after_short - before) / kMiB;
  const double growth_mib = (static_cast<double>(after_long) - static_cast<double>(after_short)) / kMiB;
  // The limits of the reference pipeline's test: each sample keeps its precomputed pupils and targets (a few MiB at
  // N = 512), nothing per step.
  constexpr double kGrowthLimitMiB = 64.0, kHeldLimitMiB = 4096.0;
  report("an_optimized_runs_device_memory_does_not_grow_with_its_length", "device memory held by a 512-grid run (MiB)",
         fixed(held_mib, 1), "< " + fixed(kHeldLimitMiB, 0));
  report("an_optimized_runs_device_memory_does_not_grow_with_its_length", "growth from 5 to 20 samples (MiB)",
         fixed(growth_mib, 1), "< " + fixed(kGrowthLimitMiB, 0));
  EXPECT_LT(held_mib, kHeldLimitMiB);
  EXPECT_LT(growth_mib, kGrowthLimitMiB);
}

// The trainer at sample 10 of the seed workload with PRISM's settings (the gated per-step workload), every step updating.
std::unique_ptr<recon::ProgressiveTrainer> positioned(const recon::ReconstructionProblem& problem, const recon::PipelineOptions& pipeline,
                                                      std::unique_ptr<recon::ProgressiveDecoder>& decoder) {
  recon::DecoderOptions decoder_options(512, 128);
  recon::TrainerOptions options;
  recon::apply_preset(recon::SettingsPreset::prism_compat, decoder_options, options);
  options.pipeline = pipeline;
  options.init_steps = 0;
  options.loss_threshold = 0.0;
  recon::seed_everything(0);
  decoder = std::make_unique<recon::ProgressiveDecoder>(decoder_options);
  auto trainer = std::make_unique<recon::ProgressiveTrainer>(*decoder, problem, options);
  for (int64_t k = 0; k < 10; ++k) {
    trainer->begin_sample();
    trainer->end_sample();
  }
  trainer->begin_sample();
  return trainer;
}

// Optimized against reference on the same GPU, as the CPU gate pairs them: interleaved steps, each timed on the
// device's clock, the median of the ratios. Floor 1.5x: the first H100 measurement read 2.30x (10th percentile 2.20),
// so a kernel that loses a third of the saving fails while the device's run-to-run noise does not.
TEST(gpu, an_optimized_step_is_faster_than_the_references_on_the_gpu) {
  SKIP_WITHOUT_GPU();
  const auto problem = recon::make_problem(recon::scenario("seed"));
  std::unique_ptr<recon::ProgressiveDecoder> reference_decoder, optimized_decoder;
  auto reference = positioned(problem, reference_on(recon::ComputeDevice::cuda), reference_decoder);
  auto optimized = positioned(problem, optimized_on(recon::ComputeDevice::cuda), optimized_decoder);
  const recon::PipelineScope scope(recon::ExecutionPlan(reference_on(recon::ComputeDevice::cuda)));
  for (int warmup = 0; warmup < 5; ++warmup) {
    reference->step();
    optimized->step();
  }
  recon::cuda::synchronize();
  recon::cuda::EventTimer timer;
  std::vector<double> reference_ms, optimized_ms, ratios;
  for (int pair = 0; pair < 31; ++pair) {
    timer.start();
    ASSERT_TRUE(reference->step());
    reference_ms.push_back(timer.stop_ms());
    timer.start();
    ASSERT_TRUE(optimized->step());
    optimized_ms.push_back(timer.stop_ms());
    ratios.push_back(reference_ms.back() / optimized_ms.back());
  }
  std::vector<double> sorted = ratios;
  std::sort(sorted.begin(), sorted.end());
  const double speedup = median(ratios);
  constexpr double kFloor = 1.5;
  report("an_optimized_step_is_faster_than_the_references_on_the_gpu", "step, N = 512, median ms reference / optimized (CUDA events)",
         fixed(median(reference_ms), 3) + " / " + fixed(median(optimized_ms), 3), "");
  report("an_optimized_step_is_faster_than_the_references_on_the_gpu", "speedup, median of 31 interleaved pairs [10th, 90th percentile]",
         fixed(speedup, 2) + "x [" + fixed(sorted[3], 2) + ", " + fixed(sorted[27], 2) + "]", "> " + fixed(kFloor, 2) + "x");
  EXPECT_GT(speedup, kFloor);
}

}  // namespace
