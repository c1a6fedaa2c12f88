#pragma once
// What the gpu tests share: the skip with its reason, the report rows tools/gpu-check collects, number formats, the
// seed workload's mid-run sample and one training step with everything it changed read back to the CPU.
//
// Each test writes its measurements as Markdown table rows (test | measure | value | limit) to standard output and,
// when RECON_GPU_REPORT names a file, appends them there.
#include "cufft_measurement.h"
#include "device_probe.h"

#include "recon/recon.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/version.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace gpu_test {

inline std::string why_no_gpu() {
  recon::choose_blas_kernels();  // before CUDA starts its threads (recon/runtime.h), as a program's main would
  std::string why;
  if (!recon::cuda::device_available(&why)) return "no usable CUDA device: " + why;
  if (!at::hasCUDA()) return "LibTorch " + std::string(TORCH_VERSION) + " has no CUDA support (a CPU-only build)";
  return "";
}

#define SKIP_WITHOUT_GPU()                                      \
  if (const auto why = gpu_test::why_no_gpu(); !why.empty()) { \
    GTEST_SKIP() << why;                                        \
  }

inline void report(const std::string& test, const std::string& measure, const std::string& value, const std::string& limit) {
  const std::string row = "| " + test + " | " + measure + " | " + value + " | " + limit + " |";
  std::cout << row << "\n";
  if (const char* path = std::getenv("RECON_GPU_REPORT"); path != nullptr && *path != '\0') {
    std::ofstream(path, std::ios::app) << row << "\n";
  }
}

inline std::string fixed(double v, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

inline std::string scientific(double v) {
  std::ostringstream s;
  s.setf(std::ios::scientific);
  s.precision(2);
  s << v;
  return s.str();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// The CPU side of every comparison runs on all of the machine's cores, recorded in the report.
inline int64_t cpu_threads() { return std::max<int64_t>(1, static_cast<int64_t>(std::thread::hardware_concurrency())); }

inline recon::PipelineOptions reference_on(recon::ComputeDevice device) {
  recon::PipelineOptions p;
  p.kind = recon::PipelineKind::reference;
  p.device = device;
  return p;
}

// ‖a − b‖₂ / ‖b‖₂ in double; 0 when both are zero.
inline double relative_l2(const at::Tensor& a, const at::Tensor& b) {
  const auto ad = a.detach().cpu().to(at::kDouble), bd = b.detach().cpu().to(at::kDouble);
  const double scale = bd.norm().item<double>();
  const double diff = (ad - bd).norm().item<double>();
  return scale > 0.0 ? diff / scale : diff;
}

// The seed workload's mid-run sample (index 10 of 20: both rows active, a cumulative mask of ten discs), with 20 dB
// detector noise so that the noise path runs too; every tensor on `device`.
inline recon::SampleSetup mid_run_sample(const recon::ReconstructionProblem& p, c10::Device device) {
  recon::SampleSetup s;
  s.ground_truth = p.ground_truth.to(device);
  s.previous_reconstruction = (p.ground_truth * 0.9).to(device);
  s.previous_centers.assign(p.centers.begin(), p.centers.begin() + 10);
  s.center = p.centers[10];
  s.radius = p.radius;
  s.first = false;
  s.index = 10;
  s.noise.enabled = true;
  s.noise.snr_db = 20.0;
  return s;
}

struct StepOutcome {
  double loss_old = 0.0, loss_new = 0.0;
  std::vector<at::Tensor> gradients, before, after;  // per parameter, on the CPU
};

/// One step of `plan` on `decoder` (built with the plan's kernels: configure_decoder) from a fresh objective and
/// optimizer, minimising old_weight · old row + new row: losses, every parameter's gradient, the parameters before
/// and after. An old_weight other than 1 tells a swap of the two rows' gradients from the right sum.
inline StepOutcome one_step(recon::ProgressiveDecoder& decoder, const recon::ExecutionPlan& plan,
                            const recon::SampleSetup& setup, double lr, double old_weight = 1.0) {
  auto objective = recon::make_objective(setup, plan);
  auto optimizer = recon::make_optimizer(plan, decoder, lr);
  StepOutcome out;
  for (const auto& p : decoder->parameters()) out.before.push_back(p.detach().cpu().clone());
  optimizer->zero_grad();
  const auto losses = (*objective)(*decoder);
  (old_weight * losses.old_row + losses.new_row).backward();
  out.loss_old = losses.old_row.item<double>();
  out.loss_new = losses.new_row.item<double>();
  // A factored first-layer gradient (factored_first_layer_grad) is read as its dense sum without consuming it, so that
  // the optimizer still takes its rank-one path.
  const auto& factored = decoder->factored_gradient();
  for (const auto& p : decoder->parameters()) {
    auto g = p.grad().defined() ? p.grad().detach().clone() : at::zeros_like(p);
    if (factored && p.unsafeGetTensorImpl() == decoder->first_layer_weight().unsafeGetTensorImpl()) {
      for (const auto& [left, right] : factored->terms) g += at::outer(left.view({-1}), right.view({-1})).view_as(g);
    }
    out.gradients.push_back(g.cpu());
  }
  optimizer->step();
  for (const auto& p : decoder->parameters()) out.after.push_back(p.detach().cpu().clone());
  return out;
}

/// The robust defaults on `problem` (cut to its first sub-apertures by the caller), 10 steps per sample after 100
/// initialisation steps, one initialisation candidate, at N = 256, S = 64: a short whole run of `pipeline`.
inline recon::ReconstructionResult short_run(const recon::ReconstructionProblem& problem, const recon::PipelineOptions& pipeline,
                                             uint64_t seed) {
  recon::TrainerOptions options;
  recon::DecoderOptions decoder_options(256, 64);
  recon::apply_preset(recon::SettingsPreset::robust, decoder_options, options);
  options.pipeline = pipeline;
  options.init_steps = 100;
  options.steps_per_sample = 10;
  options.init_candidates = 1;
  recon::seed_everything(seed);
  recon::ProgressiveDecoder decoder(decoder_options);
  return recon::reconstruct(decoder, problem, options);
}

/// The robust defaults' short run on the dense scene's first 10 sub-apertures (200 updates), seeds 0–2, on the CPU and
/// on the GPU with `pipeline_on(device)`: each seed's final PSNR on the GPU within 0.25 dB of its own on the CPU.
inline void expect_short_runs_match_the_cpu(const std::string& test,
                                            const std::function<recon::PipelineOptions(recon::ComputeDevice)>& pipeline_on) {
  recon::set_threads(cpu_threads());
  auto problem = recon::make_problem(recon::scenario("dense"));
  problem.centers.resize(10);
  constexpr double kPerSeedLimitDb = 0.25;
  for (uint64_t seed = 0; seed < 3; ++seed) {
    const auto on_cpu = short_run(problem, pipeline_on(recon::ComputeDevice::cpu), seed);
    const auto on_gpu = short_run(problem, pipeline_on(recon::ComputeDevice::cuda), seed);
    ASSERT_TRUE(on_gpu.reconstruction.device().is_cpu()) << "the result's reconstruction is returned on the CPU";
    const double cpu_db = on_cpu.samples.back().quality.psnr_db, gpu_db = on_gpu.samples.back().quality.psnr_db;
    report(test, "seed " + std::to_string(seed) + " PSNR GPU / CPU (dB); CPU gain over its samples",
           fixed(gpu_db, 3) + " / " + fixed(cpu_db, 3) + "; " + fixed(recon::trajectory_gain_db(on_cpu), 2),
           "|Δ| < " + fixed(kPerSeedLimitDb, 2));
    report(test, "seed " + std::to_string(seed) + " seconds GPU / CPU",
           fixed(on_gpu.seconds_total, 2) + " / " + fixed(on_cpu.seconds_total, 2), "");
    EXPECT_LT(std::abs(gpu_db - cpu_db), kPerSeedLimitDb) << "seed " << seed;
  }
}

/// Device memory in use after a run of `pipeline` on the first `samples` sub-apertures of `problem` (N = 512): LibTorch's
/// caching allocator keeps every block it took, so this is the run's peak reservation plus cuFFT plans and cuDNN
/// workspaces, above what the process held before.
inline std::size_t held_after_run(const recon::ReconstructionProblem& problem, const recon::PipelineOptions& pipeline,
                                  int64_t samples) {
  auto p = problem;
  p.centers.resize(static_cast<size_t>(samples));
  recon::TrainerOptions options;
  recon::DecoderOptions decoder_options(512, 128);
  recon::apply_preset(recon::SettingsPreset::robust, decoder_options, options);
  options.pipeline = pipeline;
  options.init_steps = 20;
  options.steps_per_sample = 10;
  options.init_candidates = 1;
  recon::seed_everything(0);
  recon::ProgressiveDecoder decoder(decoder_options);
  recon::reconstruct(decoder, p, options);
  recon::cuda::synchronize();
  return recon::cuda::device_bytes_in_use();
}

}  // namespace gpu_test
