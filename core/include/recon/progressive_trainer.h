#pragma once
/// The progressive trainer as an object that takes one step at a time. reconstruct() drives it; the benchmark suites
/// time exactly its step(), so the gate measures the code a user's reconstruction runs, not a copy of it.
#include "recon/decoder.h"
#include "recon/trainer.h"

#include <cstdint>
#include <memory>

namespace recon {

/// Example (what reconstruct() does):
///   ProgressiveTrainer t(decoder, problem, options);
///   t.initialise();
///   for (size_t k = 0; k < problem.centers.size(); ++k) {
///     t.begin_sample();
///     for (int64_t s = 0; s < options.steps_per_sample && t.step(); ++s) {}
///     t.end_sample();
///   }
///   auto result = t.finish();
class ProgressiveTrainer {
 public:
  /// Validates the problem against the decoder and the options (std::invalid_argument, as reconstruct() documents),
  /// resolves the pipeline's plan once, applies it to the decoder's kernel flags, moves the decoder to the plan's
  /// device, and holds the pipeline's scope until destroyed. `decoder` must outlive the trainer. The clock of the run's
  /// seconds starts here.
  ProgressiveTrainer(ProgressiveDecoder& decoder, const ReconstructionProblem& problem, const TrainerOptions& options,
                     ProgressCallback on_progress = {});
  ~ProgressiveTrainer();
  ProgressiveTrainer(const ProgressiveTrainer&) = delete;
  ProgressiveTrainer& operator=(const ProgressiveTrainer&) = delete;

  /// The initialisation phase, run to init_steps or the loss threshold. At most once, before the first sample.
  void initialise();
  /// Starts sample samples_begun(): its measurement joins the objective and its learning rate is chosen from its
  /// overlap with the earlier discs. Its own objective (previous-reconstruction memory) is built at its first step, and
  /// its optimizer made (or kept, without fresh_optimizer_per_sample) at its first update: a sample that takes no step
  /// costs neither.
  /// Throws std::logic_error when a sample is already open or every sample has been begun.
  void begin_sample();
  /// One step of the open sample: the rows' losses evaluated and read back into the sample's record; then, unless the
  /// convergence test stops the sample (false: nothing updated), backward and the optimizer's update (true). The step
  /// budget is the caller's: reconstruct() calls it at most steps_per_sample times per sample.
  bool step();
  /// Ends the open sample: the reconstruction after its last step, its quality, its record appended to the result
  /// (a sample that took no step reuses the previous output and quality: the parameters did not move).
  void end_sample();
  int64_t samples_begun() const;
  /// The run's result (reconstruction = the output after the last ended sample, seconds up to now). Call once, after
  /// the last end_sample(); the trainer is spent afterwards (every further call throws std::logic_error).
  ReconstructionResult finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace recon
