#include "recon/trainer.h"

#include "convergence_monitor.h"
#include "plants.h"
#include "recon/fourier.h"
#include "recon/limits.h"
#include "recon/optimizer.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace recon {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void validate(const ProgressiveDecoder& decoder, const ReconstructionProblem& p, const TrainerOptions& o) {
  const int64_t n = decoder->options.grid_size();
  if (!p.ground_truth.defined() || p.ground_truth.dim() != 2 || p.ground_truth.size(0) != n || p.ground_truth.size(1) != n) {
    throw std::invalid_argument("ReconstructionProblem::ground_truth must be [" + std::to_string(n) + ", " + std::to_string(n) + "]");
  }
  if (p.object_size != decoder->options.object_size()) {
    throw std::invalid_argument("ReconstructionProblem::object_size = " + std::to_string(p.object_size) +
                                " differs from the decoder's " + std::to_string(decoder->options.object_size()));
  }
  if (p.centers.empty()) throw std::invalid_argument("ReconstructionProblem::centers is empty");
  if (!(p.radius >= kMinRadius) || p.radius >= static_cast<double>(n) / 2.0) {
    throw std::invalid_argument("ReconstructionProblem::radius = " + std::to_string(p.radius) + ", must be in [" +
                                std::to_string(kMinRadius) + ", N/2)");
  }
  if (p.object_size < kMinObjectSize) {
    throw std::invalid_argument("ReconstructionProblem::object_size = " + std::to_string(p.object_size) + ", must be >= " +
                                std::to_string(kMinObjectSize) + " (SSIM's window)");
  }
  if (o.init_steps < 0 || o.steps_per_sample < 0) throw std::invalid_argument("TrainerOptions: step budgets must be >= 0");
  if (!(o.learning_rate > 0.0)) throw std::invalid_argument("TrainerOptions::learning_rate must be > 0");
  if (!(o.init_learning_rate > 0.0)) throw std::invalid_argument("TrainerOptions::init_learning_rate must be > 0");
  if (!(o.isolated_learning_rate >= 0.0) || !std::isfinite(o.isolated_learning_rate)) {
    throw std::invalid_argument("TrainerOptions::isolated_learning_rate must be >= 0 and finite");
  }
  if (o.replayed_per_step < 0) throw std::invalid_argument("TrainerOptions::replayed_per_step must be >= 0");
}

// PRISM's ReduceLROnPlateau(mode=min, factor=0.5, patience=10, relative threshold 1e-4), stepped once per 100
// initialisation steps.
class PlateauScheduler {
 public:
  void step(double loss, StepOptimizer& optimizer) {
    if (loss < best_ * (1.0 - 1e-4)) {
      best_ = loss;
      bad_ = 0;
    } else if (++bad_ > 10) {
      optimizer.set_learning_rate(optimizer.learning_rate() * 0.5);
      bad_ = 0;
    }
  }

 private:
  double best_ = std::numeric_limits<double>::infinity();
  int64_t bad_ = 0;
};

at::Tensor init_target(const ReconstructionProblem& p, const TrainerOptions& o, int64_t n) {
  if (o.init_target == InitTarget::disc) {
    return disc_mask(n, Center{}, static_cast<double>(p.object_size) / 2.0).to(at::kFloat);
  }
  // The low-pass image through the first pupil, aligned with the object: |Fc⁻¹(Fc(x)·M)| is PRISM's measurement
  // rolled back by one pixel (prism-core.md §1.3), so the decoder output and the ground truth stay registered.
  auto first = at::abs(ifft2c(fft2c(p.ground_truth) * disc_mask(n, p.centers.front(), p.radius)));
  first = add_measurement_noise(first, o.noise, 0);
  const auto lo = first.min(), span = first.max() - lo;
  return ((first - lo) / at::clamp_min(span, 1e-12)).contiguous();
}

// Initialisation: pull the output toward the init target (image space, no physics).
std::pair<int64_t, double> initialise(ProgressiveDecoder& decoder, const ReconstructionProblem& problem,
                                      const TrainerOptions& o, const ExecutionPlan& plan, const ProgressCallback& cb) {
  const int64_t n = decoder->options.grid_size();
  auto target = init_target(problem, o, n);
  const auto normaliser = target.mean();
  auto optimizer = make_optimizer(plan, decoder, o.init_learning_rate);
  PlateauScheduler scheduler;
  double loss_value = 0.0;
  int64_t step = 0;
  for (; step < o.init_steps; ++step) {
    auto loss = (decoder->forward().view({n, n}) - target).abs().mean() / normaliser;
    loss_value = loss.item<double>();
    if (cb) cb(Progress{Progress::Phase::init, 0, 0, step + 1, o.init_steps, loss_value});
    if (loss_value < o.loss_threshold) break;
    optimizer->zero_grad();
    loss.backward();
    optimizer->step();
    if ((step + 1) % 100 == 0) scheduler.step(loss_value, *optimizer);
  }
  return {step, loss_value};
}

// Fraction of `disc`'s pixels inside `earlier` (the union of the earlier discs, kept by the caller, one disc added
// per sample), then adds the disc to it.
double cover_and_add(const at::Tensor& disc, at::Tensor& earlier) {
  const double area = disc.sum().item<double>();
  const double covered = area > 0.0 ? disc.logical_and(earlier).sum().item<double>() / area : 0.0;
  earlier.logical_or_(disc);
  return covered;
}

// The learning rate of a sample whose disc is `covered` by earlier ones (see TrainerOptions::isolated_learning_rate).
double sample_learning_rate(const TrainerOptions& o, double covered) {
  if (o.isolated_learning_rate <= 0.0) return o.learning_rate;
  return covered >= kOverlapped ? o.learning_rate : o.isolated_learning_rate;
}

}  // namespace

InitTarget parse_init_target(const std::string& name) {
  if (name == "disc") return InitTarget::disc;
  if (name == "first-measurement" || name == "first_measurement") return InitTarget::first_measurement;
  throw std::invalid_argument("unknown init target '" + name + "' (expected disc or first-measurement)");
}

std::string to_string(InitTarget target) { return target == InitTarget::disc ? "disc" : "first-measurement"; }

double trajectory_gain_db(const ReconstructionResult& result) {
  if (result.samples.empty()) return 0.0;
  return result.samples.back().quality.psnr_db - result.samples.front().quality.psnr_db;
}

double seconds_to_quality(const ReconstructionResult& result, double within_db) {
  if (result.samples.empty()) return result.seconds_init;
  const double goal = result.samples.back().quality.psnr_db - within_db;
  double elapsed = result.seconds_init;
  for (const auto& s : result.samples) {
    elapsed += s.seconds;
    if (s.quality.psnr_db >= goal) return elapsed;
  }
  return elapsed;
}

SampleMemory parse_sample_memory(const std::string& name) {
  if (name == "previous-reconstruction" || name == "previous_reconstruction") return SampleMemory::previous_reconstruction;
  if (name == "measured-data" || name == "measured_data") return SampleMemory::measured_data;
  throw std::invalid_argument("unknown sample memory '" + name + "' (expected previous-reconstruction or measured-data)");
}

std::string to_string(SampleMemory memory) {
  return memory == SampleMemory::previous_reconstruction ? "previous-reconstruction" : "measured-data";
}

ReconstructionResult reconstruct(ProgressiveDecoder& decoder, const ReconstructionProblem& problem,
                                 const TrainerOptions& options, const ProgressCallback& on_progress) {
  validate(decoder, problem, options);
  const auto start = Clock::now();
  const ExecutionPlan plan(options.pipeline);  // resolved once; everything below runs it
  configure_decoder(decoder->options, plan);
  const PipelineScope scope(plan);
  ReconstructionResult result;
  std::tie(result.init_steps, result.init_loss) = initialise(decoder, problem, options, plan, on_progress);
  result.total_steps = result.init_steps;
  result.seconds_init = seconds_since(start);

  const int64_t n = decoder->options.grid_size();
  const auto sample_count = static_cast<int64_t>(problem.centers.size());
  std::unique_ptr<StepOptimizer> optimizer;
  at::Tensor current;
  {
    at::NoGradGuard no_grad;
    current = decoder->forward().view({n, n}).clone();
  }
  const bool replay = options.memory == SampleMemory::measured_data;
  MeasuredDataObjective measured(plan, options.replayed_per_step);
  at::Tensor covered_so_far;  // union of the discs measured so far, when the isolated rate needs it
  for (int64_t k = 0; k < sample_count; ++k) {
    const auto sample_start = Clock::now();
    SampleSetup setup;
    setup.ground_truth = problem.ground_truth;
    setup.previous_reconstruction = current;
    setup.previous_centers.assign(problem.centers.begin(), problem.centers.begin() + k);
    setup.center = problem.centers[static_cast<size_t>(k)];
    setup.radius = problem.radius;
    setup.first = k == 0;
    setup.index = k;
    setup.loss = options.loss;
    setup.noise = options.noise;
    std::unique_ptr<SampleObjective> own;
    if (replay) {
      measured.add(setup);
    } else {
      own = make_objective(setup, plan);
    }
    double covered = 0.0;
    if (options.isolated_learning_rate > 0.0) {
      const auto disc = disc_mask(n, setup.center, problem.radius) > 0.5;
      if (!covered_so_far.defined()) covered_so_far = at::zeros_like(disc);
      covered = cover_and_add(disc, covered_so_far);
    }
    const double lr = k > 0 && detail::planted("lr_ignored_after_first_sample") ? TrainerOptions{}.learning_rate
                                                                                : sample_learning_rate(options, covered);
    if (options.fresh_optimizer_per_sample || !optimizer) optimizer = make_optimizer(plan, decoder, lr);
    optimizer->set_learning_rate(lr);
    detail::ConvergenceMonitor monitor(options.loss_threshold);

    SampleRecord record;
    record.index = k;
    record.center = setup.center;
    record.covered = covered;
    record.learning_rate = lr;
    for (int64_t step = 0; step < options.steps_per_sample; ++step) {
      auto losses = replay ? measured(*decoder) : (*own)(*decoder);
      auto total = losses.old_row + losses.new_row;
      record.loss_old = losses.old_row.item<double>();
      record.loss_new = losses.new_row.item<double>();
      const double total_value = record.loss_old + record.loss_new;
      if (step == 0) record.first_loss = total_value;
      monitor.update(total_value);
      if (on_progress) on_progress(Progress{Progress::Phase::sample, k + 1, sample_count, step + 1, options.steps_per_sample, total_value});
      // Convergence is tested before the update, on the rows (the first sample has only the new row).
      const bool below = setup.first ? record.loss_new < options.loss_threshold
                                     : record.loss_old < options.loss_threshold && record.loss_new < options.loss_threshold;
      if (below || (options.plateau_stop && monitor.should_stop())) {
        record.converged = true;
        break;
      }
      optimizer->zero_grad();
      total.backward();
      optimizer->step();
      ++record.steps;
    }
    {
      at::NoGradGuard no_grad;
      current = decoder->forward().view({n, n}).clone();
    }
    record.quality = evaluate(current, problem.ground_truth, problem.object_size);
    record.seconds = seconds_since(sample_start);
    result.total_steps += record.steps;
    result.samples.push_back(record);
  }
  result.reconstruction = current;
  result.seconds_total = seconds_since(start);
  return result;
}

}  // namespace recon
