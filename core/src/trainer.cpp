#include "recon/trainer.h"

#include "recon/progressive_trainer.h"

#include <stdexcept>

namespace recon {

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

ReconstructionResult reconstruct(ProgressiveDecoder& decoder, const ReconstructionProblem& problem,
                                 const TrainerOptions& options, const ProgressCallback& on_progress) {
  // The caller's callback itself is called (not a copy of it), as the signature's reference promises.
  ProgressiveTrainer trainer(decoder, problem, options,
                             on_progress ? ProgressCallback([&on_progress](const Progress& p) { on_progress(p); }) : ProgressCallback());
  trainer.initialise();
  for (size_t k = 0; k < problem.centers.size(); ++k) {
    trainer.begin_sample();
    for (int64_t step = 0; step < options.steps_per_sample && trainer.step(); ++step) {
    }
    trainer.end_sample();
  }
  return trainer.finish();
}

}  // namespace recon
