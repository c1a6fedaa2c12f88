#include "recon/progressive_trainer.h"

#include "convergence_monitor.h"
#include "decoder_weights.h"
#include "recon/fourier.h"
#include "recon/limits.h"
#include "recon/object_box.h"
#include "recon/optimizer.h"
#include "recon/plateau_scheduler.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>
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
  if (const auto why = radius_refusal(p.radius, n); !why.empty()) throw std::invalid_argument("ReconstructionProblem::radius " + why);
  if (const auto why = object_size_refusal(p.object_size, n); !why.empty()) {
    throw std::invalid_argument("ReconstructionProblem::object_size " + why);
  }
  if (o.init_steps < 0 || o.steps_per_sample < 0) throw std::invalid_argument("TrainerOptions: step budgets must be >= 0");
  if (!(o.learning_rate > 0.0)) throw std::invalid_argument("TrainerOptions::learning_rate must be > 0");
  if (!(o.init_learning_rate > 0.0)) throw std::invalid_argument("TrainerOptions::init_learning_rate must be > 0");
  if (!(o.isolated_learning_rate >= 0.0) || !std::isfinite(o.isolated_learning_rate)) {
    throw std::invalid_argument("TrainerOptions::isolated_learning_rate must be >= 0 and finite");
  }
  if (o.replayed_per_step < 0) throw std::invalid_argument("TrainerOptions::replayed_per_step must be >= 0");
  if (o.init_candidates < 1) throw std::invalid_argument("TrainerOptions::init_candidates must be >= 1");
  const auto& screen = o.candidate_screen;
  if (screen.survivors < 0 || screen.init_steps < 0 || screen.trial_steps < 0) {
    throw std::invalid_argument("TrainerOptions::candidate_screen: survivors and step budgets must be >= 0");
  }
  if (o.fit_plateau.window < 0 ||
      (o.fit_plateau.enabled() && !(o.fit_plateau.min_fall > 0.0 && o.fit_plateau.min_fall <= 1.0))) {
    throw std::invalid_argument("TrainerOptions::fit_plateau: window must be >= 0 and min_fall in (0, 1]");
  }
  if (!(o.output_average >= 0.0 && o.output_average < 1.0)) {
    throw std::invalid_argument("TrainerOptions::output_average must be in [0, 1)");
  }
}


// The exponential average of the decoder's outputs, bias-corrected as Adam's moments are: after t outputs it is
// Σ β^(t−i) x_i / Σ β^(t−i), so it does not lean toward its zero start however short the run.
class OutputAverage {
 public:
  explicit OutputAverage(double decay) : decay_(decay) {}
  void add(const at::Tensor& output) {
    if (!sum_.defined()) sum_ = at::zeros_like(output);
    sum_.mul_(decay_).add_(output, 1.0 - decay_);
    weight_ = weight_ * decay_ + (1.0 - decay_);
  }
  bool empty() const { return !sum_.defined(); }
  at::Tensor value() const { return sum_ / weight_; }

 private:
  double decay_;
  at::Tensor sum_;
  double weight_ = 0.0;
};

at::Tensor init_target(const ReconstructionProblem& p, const TrainerOptions& o, const MeasuredSample& first_sample) {
  const int64_t n = first_sample.grid();
  if (o.init_target == InitTarget::disc) {
    return disc_mask(n, Center{}, static_cast<double>(p.object_size) / 2.0, p.ground_truth.device()).to(at::kFloat);
  }
  // The low-pass image through the first pupil, aligned with the object: |Fc⁻¹(Fc(x)·M)| is PRISM's measurement
  // rolled back by one pixel (prism-core.md §1.3), so the decoder output and the ground truth stay registered.
  auto first = at::abs(ifft2c(fft2c(p.ground_truth) * first_sample.disc()));
  first = add_registered_measurement_noise(first, o.noise, 0);
  const auto lo = first.min(), span = first.max() - lo;
  return ((first - lo) / at::clamp_min(span, 1e-12)).contiguous();
}

// The learning rate of a sample whose disc is `covered` by earlier ones (see TrainerOptions::isolated_learning_rate).
double sample_learning_rate(const TrainerOptions& o, double covered) {
  if (o.isolated_learning_rate <= 0.0) return o.learning_rate;
  return covered >= kOverlapped ? o.learning_rate : o.isolated_learning_rate;
}

// The initialisation's loss: the mean over the N×N grid of |output − target|, over the target's mean. The output is
// zero outside the object box, so with box_init_loss the grid outside contributes Σ|target| there, a constant summed
// once, and only the S×S box is computed per step (the padded grid, its difference and their backward are 16 times
// the box's size at the seed workload). The gradient is the same expression either way, sign(output − target) / N²
// / mean, and the loss's value differs by the order of its sum only; of the initialisation's decisions, only the loss
// threshold and the plateau schedule read that value.
class InitLoss {
 public:
  InitLoss(const at::Tensor& target, int64_t object_size, bool on_box)
      : n_(target.size(0)), on_box_(on_box), target_(target), normaliser_(target.mean()) {
    if (!on_box_) return;
    const auto box = object_box(n_, object_size);
    auto outside = target.abs();
    outside.narrow(0, box.before, object_size).narrow(1, box.before, object_size).zero_();
    outside_ = outside.sum();
    target_ = target.narrow(0, box.before, object_size).narrow(1, box.before, object_size).contiguous();
  }
  at::Tensor operator()(ProgressiveDecoder& decoder) const {
    if (!on_box_) return (decoder->forward().view({n_, n_}) - target_).abs().mean() / normaliser_;
    const auto difference = decoder->forward_object().view_as(target_) - target_;
    return (difference.abs().sum() + outside_) / static_cast<double>(n_ * n_) / normaliser_;
  }

 private:
  int64_t n_;
  bool on_box_;
  at::Tensor target_;  // the grid's, or its object box with box_init_loss
  at::Tensor normaliser_;
  at::Tensor outside_;  // Σ|target| outside the object box, with box_init_loss
};

// The initialisation loop proper: steps down `init_loss` from the decoder's current weights, to `budget` steps or the
// loss threshold. Returns the steps taken and the last loss evaluated.
std::pair<int64_t, double> fit_init_target(ProgressiveDecoder& decoder, const ExecutionPlan& plan, const TrainerOptions& o,
                                           const ProgressCallback& on_progress, const InitLoss& init_loss, int64_t budget) {
  auto optimizer = make_optimizer(plan, decoder, o.init_learning_rate);
  PlateauScheduler scheduler;
  double loss_value = 0.0;
  int64_t step = 0;
  for (; step < budget; ++step) {
    auto loss = init_loss(decoder);
    loss_value = loss.item<double>();
    if (on_progress) on_progress(Progress{Progress::Phase::init, 0, 0, step + 1, budget, loss_value, loss_value});
    if (loss_value < o.loss_threshold) break;
    optimizer->zero_grad();
    loss.backward();
    optimizer->step();
    if ((step + 1) % 100 == 0) scheduler.step(loss_value, *optimizer);
  }
  return {step, loss_value};
}

// What sample k measures: its sub-aperture, noise draw and loss, as the first sample's form (no earlier discs, no
// previous reconstruction); begin_sample() adds the previous reconstruction and the earlier discs' union.
SampleSetup sample_setup(const ReconstructionProblem& p, const TrainerOptions& o, int64_t k) {
  SampleSetup setup;
  setup.ground_truth = p.ground_truth;
  setup.center = p.centers[static_cast<size_t>(k)];
  setup.radius = p.radius;
  setup.first = k == 0;
  setup.index = k;
  setup.loss = o.loss;
  setup.noise = o.noise;
  return setup;
}

// A candidate's score: the first measurement's loss after `updates` of the first sample's updates (its objective, its
// learning rate, fresh Adam moments), evaluated once more after the last. Moves the weights.
double trial_first_fit(ProgressiveDecoder& decoder, const ExecutionPlan& plan, const MeasuredSample& first_sample,
                       const TrainerOptions& o, int64_t updates) {
  const auto objective = make_objective(first_sample, plan);
  auto optimizer = make_optimizer(plan, decoder, sample_learning_rate(o, 0.0));
  for (int64_t step = 0;; ++step) {
    const auto losses = (*objective)(decoder->forward_object());
    if (step == updates) return losses.new_row.item<double>();
    optimizer->zero_grad();
    (losses.old_row + losses.new_row).backward();  // as step() does: the first sample's old row aliases its new one
    optimizer->step();
  }
}

// Loss order for ranking candidates: a NaN (a fit that diverged) ranks after every number.
bool lower_loss(double a, double b) { return !std::isnan(a) && (std::isnan(b) || a < b); }

// The problem with its ground truth on the plan's device: every objective and target is built from it there.
ReconstructionProblem on_device(ReconstructionProblem p, const ExecutionPlan& plan) {
  p.ground_truth = p.ground_truth.to(plan.torch_device());
  return p;
}

}  // namespace

struct ProgressiveTrainer::State {
  State(ProgressiveDecoder& d, const ReconstructionProblem& p, const TrainerOptions& o, ProgressCallback cb)
      : decoder(d), plan(o.pipeline), problem(on_device(p, plan)), ground_truth_cpu(p.ground_truth.cpu()), options(o),
        on_progress(std::move(cb)), measured(plan, o.replayed_per_step) {}

  ProgressiveDecoder& decoder;
  const ExecutionPlan plan;  // resolved once; everything below runs it, on its device
  const ReconstructionProblem problem;
  const at::Tensor ground_truth_cpu;  // quality is evaluated on the CPU, whatever the device
  const TrainerOptions options;
  const ProgressCallback on_progress;
  const Clock::time_point start = Clock::now();
  std::optional<PipelineScope> scope;
  ReconstructionResult result;
  bool initialised = false;
  bool finished = false;

  // Across samples.
  at::Tensor current;         // the output after the initialisation or the last ended sample
  std::optional<OutputAverage> average;          // when options.output_average > 0: of the progressive steps' outputs
  at::Tensor reconstruction;                     // what the run reports: current, or the average once it has outputs
  std::optional<QualityReport> reconstruction_quality;  // evaluate(reconstruction), once computed
  MeasuredDataObjective measured;
  // Sample 0 as the initialisation reads it (its disc shapes the init target, its measurement the candidates' trials)
  // and as begin_sample() then takes it: one sample, measured once.
  std::optional<MeasuredSample> first_sample;
  at::Tensor coverage;  // the union of the discs of the samples begun so far: the next sample's earlier discs
  std::unique_ptr<StepOptimizer> optimizer;

  // The open sample.
  bool open = false;
  bool first = true;
  Clock::time_point sample_start;
  std::optional<MeasuredSample> own_sample;  // previous-reconstruction memory: what this sample's objective fits …
  std::unique_ptr<SampleObjective> own;  // … and the objective, built at the sample's first evaluation
  double learning_rate = 0.0;            // the sample's rate; its optimizer is made (or re-rated) at its first update
  bool optimizer_ready = false;
  std::optional<detail::ConvergenceMonitor> monitor;
  std::optional<FitPlateau> fit_plateau;  // the sample's measurement-only stop, present only when options.fit_plateau is on
  SampleRecord record;
  int64_t evaluations = 0;

  int64_t n() const { return decoder->options.grid_size(); }
  const MeasuredSample& sample_zero() {
    if (!first_sample) first_sample.emplace(sample_setup(problem, options, 0), at::Tensor());
    return *first_sample;
  }
  void update_reconstruction() {
    reconstruction = average && !average->empty() ? decoder->on_grid(average->value()).view({n(), n()}) : current;
    reconstruction_quality.reset();
  }
  at::Tensor output() const {
    at::NoGradGuard no_grad;
    return decoder->forward().view({n(), n()}).clone();
  }
};

size_t best_candidate(const std::vector<InitCandidate>& candidates) {
  std::optional<size_t> best;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i].screened_out) continue;
    if (!best || lower_loss(candidates[i].trial_loss, candidates[*best].trial_loss)) best = i;
  }
  if (!best) throw std::invalid_argument("best_candidate: no candidates, or every one screened out");
  return *best;
}

ProgressiveTrainer::ProgressiveTrainer(ProgressiveDecoder& decoder, const ReconstructionProblem& problem,
                                       const TrainerOptions& options, ProgressCallback on_progress) {
  validate(decoder, problem, options);
  state_ = std::make_unique<State>(decoder, problem, options, std::move(on_progress));
  configure_decoder(decoder->options, state_->plan);
  // Moved only when it is elsewhere: Module::to walks every submodule and parameter (a few hundred heap allocations,
  // which the accuracy gate counts), for nothing when the decoder is already there.
  if (decoder->first_layer_weight().device().type() != state_->plan.torch_device().type()) decoder->to(state_->plan.torch_device());
  state_->scope.emplace(state_->plan);
  if (options.output_average > 0.0) state_->average.emplace(options.output_average);
}

ProgressiveTrainer::~ProgressiveTrainer() = default;

int64_t ProgressiveTrainer::samples_begun() const { return static_cast<int64_t>(state_->result.samples.size()) + (state_->open ? 1 : 0); }

// Initialisation: pull the output toward the init target (image space, no physics); with several candidates, the one
// whose trial fit of the first measurement ends lowest (TrainerOptions::init_candidates), after a screen of short
// fits when one is asked for (TrainerOptions::candidate_screen).
void ProgressiveTrainer::initialise() {
  auto& s = *state_;
  if (s.finished || s.initialised || samples_begun() > 0) throw std::logic_error("ProgressiveTrainer::initialise: only once, before the first sample");
  s.initialised = true;
  const auto& o = s.options;
  // One loss for every candidate's fit: the target, and with box_init_loss its box and outside constant, built once.
  const InitLoss init_loss(init_target(s.problem, o, s.sample_zero()), s.problem.object_size, s.plan.switches().box_init_loss);
  auto& result = s.result;
  // One candidate's full initialisation from the decoder's current weights, recorded in `record`.
  auto full_initialisation = [&](InitCandidate& record) {
    const auto [steps, loss] = fit_init_target(s.decoder, s.plan, o, s.on_progress, init_loss, o.init_steps);
    result.total_steps += steps;
    record.init_steps = steps;
    record.init_loss = loss;
  };
  if (o.init_candidates == 1) {
    InitCandidate only;
    full_initialisation(only);
    result.init_steps = only.init_steps;
    result.init_loss = only.init_loss;
  } else {
    const auto& screen = o.candidate_screen;
    const bool screened = screen.survivors > 0;
    // With a screen: every candidate takes the short fits, and the survivors are kept with their draws.
    std::vector<std::pair<size_t, std::vector<at::Tensor>>> survivors;
    for (size_t c = 0; screened && c < static_cast<size_t>(o.init_candidates); ++c) {
      auto drawn = c == 0 ? detail::copy_weights(*s.decoder) : detail::draw_weights(s.decoder->options);
      if (c > 0) detail::load_weights(*s.decoder, drawn);
      InitCandidate record;
      const auto [steps, loss] = fit_init_target(s.decoder, s.plan, o, s.on_progress, init_loss, screen.init_steps);
      record.init_steps = steps;
      record.init_loss = loss;
      record.screen_loss = trial_first_fit(s.decoder, s.plan, s.sample_zero(), o, screen.trial_steps);
      record.trial_loss = std::numeric_limits<double>::quiet_NaN();  // unless it takes the full trial below
      record.screened_out = true;  // until it takes the full initialisation below
      result.total_steps += steps + screen.trial_steps;
      result.init_candidates.push_back(record);
      // Kept while among the `survivors` lowest so far; a later candidate displaces the worst only when strictly lower.
      survivors.emplace_back(c, std::move(drawn));
      std::stable_sort(survivors.begin(), survivors.end(), [&](const auto& x, const auto& y) {
        return lower_loss(result.init_candidates[x.first].screen_loss, result.init_candidates[y.first].screen_loss);
      });
      if (survivors.size() > static_cast<size_t>(screen.survivors)) survivors.pop_back();
    }
    std::sort(survivors.begin(), survivors.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    // The full initialisation and trial: of every candidate in draw order without a screen, of the survivors with one.
    const size_t finalists = screened ? survivors.size() : static_cast<size_t>(o.init_candidates);
    std::vector<at::Tensor> chosen;  // the best finalist's weights after its initialisation
    for (size_t i = 0; i < finalists; ++i) {
      const size_t c = screened ? survivors[i].first : i;
      if (screened) {
        detail::load_weights(*s.decoder, survivors[i].second);
      } else {
        if (c > 0) detail::load_weights(*s.decoder, detail::draw_weights(s.decoder->options));
        result.init_candidates.emplace_back();
      }
      auto& record = result.init_candidates[c];
      record.screened_out = false;
      full_initialisation(record);
      if (finalists == 1) {  // the screen's only survivor: nothing to compare, no trial
        record.trial_loss = std::numeric_limits<double>::quiet_NaN();
        result.chosen_candidate = static_cast<int64_t>(c);
        break;  // the decoder stands as its initialisation left it
      }
      auto initialised = detail::copy_weights(*s.decoder);
      record.trial_loss = trial_first_fit(s.decoder, s.plan, s.sample_zero(), o, o.steps_per_sample);
      result.total_steps += o.steps_per_sample;
      if (best_candidate(result.init_candidates) == c) {  // the best so far: keep its weights
        result.chosen_candidate = static_cast<int64_t>(c);
        chosen = std::move(initialised);
      }
    }
    if (!chosen.empty()) detail::load_weights(*s.decoder, chosen);
    const auto& picked = result.init_candidates[static_cast<size_t>(result.chosen_candidate)];
    result.init_steps = picked.init_steps;
    result.init_loss = picked.init_loss;
  }
  s.result.seconds_init = seconds_since(s.start);
  s.current = s.output();  // the output after the initialisation, read once (BatchNorm's running statistics
                           // see this forward too, so a second read would change them)
  s.update_reconstruction();
}

void ProgressiveTrainer::begin_sample() {
  auto& s = *state_;
  const int64_t k = samples_begun();
  if (s.finished || s.open || k >= static_cast<int64_t>(s.problem.centers.size())) {
    throw std::logic_error("ProgressiveTrainer::begin_sample: finished, a sample is open or every sample has been begun");
  }
  s.sample_start = Clock::now();
  auto setup = sample_setup(s.problem, s.options, k);
  setup.previous_reconstruction = s.current;  // the output after the last ended sample (or the initialisation)
  const MeasuredSample sample = k == 0 ? s.sample_zero() : MeasuredSample(setup, s.coverage);
  s.first_sample.reset();
  s.coverage = sample.coverage_after();  // PRISM's cumulative mask grows by the disc once the sample ends
  s.first = setup.first;
  s.own.reset();
  s.own_sample.reset();
  // The sample's disc and target are measured now, and the measurement joins the measured-data rows (the round robin
  // replays it from the next step on); a sample's own objective and its optimizer wait for its first evaluation and
  // update, so that a sample that takes no step (a zero budget, a converged start, or a benchmark positioning the
  // trainer) costs neither.
  if (s.options.memory == SampleMemory::measured_data) {
    s.measured.add(sample);
  } else {
    s.own_sample = sample;
  }
  // Read only when the rate depends on it, as the sample's record reports it.
  const double covered = s.options.isolated_learning_rate > 0.0 ? sample.covered() : 0.0;
  const double lr = sample_learning_rate(s.options, covered);
  s.learning_rate = lr;
  s.optimizer_ready = false;
  s.monitor.emplace(s.options.loss_threshold);
  // Only when on: the rule keeps a history, and a run without it allocates nothing for it (the allocation gates
  // count every heap allocation of a run).
  if (s.options.fit_plateau.enabled()) {
    s.fit_plateau.emplace(s.options.fit_plateau);
  } else {
    s.fit_plateau.reset();
  }
  s.record = SampleRecord{};
  s.record.index = k;
  s.record.center = setup.center;
  s.record.covered = covered;
  s.record.learning_rate = lr;
  s.evaluations = 0;
  s.open = true;
}

bool ProgressiveTrainer::step() {
  auto& s = *state_;
  if (!s.open) throw std::logic_error("ProgressiveTrainer::step: no sample is open");
  auto& record = s.record;
  const auto& o = s.options;
  if (s.own_sample && !s.own) s.own = make_objective(*s.own_sample, s.plan);
  const auto object = s.decoder->forward_object();  // one forward per step, whichever objective reads it
  auto losses = s.own ? (*s.own)(object) : s.measured(object);
  auto total = losses.old_row + losses.new_row;
  record.loss_old = losses.old_row.item<double>();
  record.loss_new = losses.new_row.item<double>();
  const double total_value = record.loss_old + record.loss_new;
  if (s.evaluations++ == 0) record.first_loss = total_value;
  s.monitor->update(total_value);
  if (s.fit_plateau) s.fit_plateau->update(record.loss_new);
  if (s.on_progress) {
    s.on_progress(Progress{Progress::Phase::sample, record.index + 1, static_cast<int64_t>(s.problem.centers.size()), s.evaluations,
                           o.steps_per_sample, total_value, record.loss_new});
  }
  // Convergence is tested before the update, on the rows (the first sample has only the new row).
  const bool below = s.first ? record.loss_new < o.loss_threshold
                             : record.loss_old < o.loss_threshold && record.loss_new < o.loss_threshold;
  if (below || (o.plateau_stop && s.monitor->should_stop())) {
    record.converged = true;
    return false;
  }
  if (s.fit_plateau && s.fit_plateau->should_stop()) {
    record.plateaued = true;
    return false;
  }
  if (!s.optimizer_ready) {
    if (o.fresh_optimizer_per_sample || !s.optimizer) s.optimizer = make_optimizer(s.plan, s.decoder, s.learning_rate);
    s.optimizer->set_learning_rate(s.learning_rate);
    s.optimizer_ready = true;
    record.learning_rate = s.optimizer->learning_rate();  // the rate the steps run at, read back from the optimizer
  }
  s.optimizer->zero_grad();
  total.backward();
  s.optimizer->step();
  ++record.steps;
  if (s.average) s.average->add(object.detach());  // the output this step was computed at
  return true;
}

void ProgressiveTrainer::end_sample() {
  auto& s = *state_;
  if (!s.open) throw std::logic_error("ProgressiveTrainer::end_sample: no sample is open");
  // A sample that took no step left the parameters, and so the output, as they were: the output and its quality are
  // reused, not recomputed (the values are identical; only BatchNorm's running statistics, which training-mode
  // outputs never use, miss that forward).
  if (s.record.steps > 0 || !s.current.defined()) {
    s.current = s.output();
    s.update_reconstruction();
  }
  if (!s.reconstruction_quality) {
    s.reconstruction_quality = evaluate(s.reconstruction.cpu(), s.ground_truth_cpu, s.problem.object_size);
  }
  s.record.quality = *s.reconstruction_quality;
  s.record.seconds = seconds_since(s.sample_start);
  s.result.total_steps += s.record.steps;
  s.result.samples.push_back(s.record);
  s.own.reset();
  s.own_sample.reset();
  s.open = false;
}

ReconstructionResult ProgressiveTrainer::finish() {
  auto& s = *state_;
  if (s.open || s.finished) throw std::logic_error("ProgressiveTrainer::finish: a sample is open, or finished already");
  s.finished = true;
  if (!s.current.defined()) {  // finished before the first sample: the decoder's output as it stands
    s.current = s.output();
    s.update_reconstruction();
  }
  s.result.reconstruction = s.reconstruction.cpu();
  s.result.seconds_total = seconds_since(s.start);
  return std::move(s.result);
}

}  // namespace recon
