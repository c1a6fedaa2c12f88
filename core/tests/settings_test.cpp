// Contract: --settings prism-compat is PRISM's behaviour, as its runner and CLI default to it: Adam at 1e-3 for the
// initialisation and every sample, fresh moments per sample, the normalised L1 loss stopped at 1e-3, the binary disc
// as the initialisation target, no output activation, the previous reconstruction as memory, the last output
// reported, the seed's own decoder draw. A value changed here changes every prism-compat number the README compares
// against, and no gate would see it: the preset's learning rate changes neither the work nor the allocations.
#include "recon/settings.h"

#include <gtest/gtest.h>

namespace {

TEST(settings, prism_compat_is_prisms_runner_defaults) {
  recon::DecoderOptions decoder(64, 16);
  recon::TrainerOptions trainer;
  // Start from values PRISM does not use, so every field the preset must set is seen to be set.
  decoder.output_activation(recon::OutputActivation::sigmoid);
  trainer.init_target = recon::InitTarget::first_measurement;
  trainer.init_learning_rate = trainer.learning_rate = trainer.isolated_learning_rate = 0.5;
  trainer.loss.normalize = false;
  trainer.loss_threshold = 0.0;
  trainer.fresh_optimizer_per_sample = false;
  trainer.memory = recon::SampleMemory::measured_data;
  trainer.output_average = 0.9;
  trainer.init_candidates = 4;
  recon::apply_preset(recon::SettingsPreset::prism_compat, decoder, trainer);
  EXPECT_EQ(decoder.output_activation(), recon::OutputActivation::none);
  EXPECT_EQ(trainer.init_target, recon::InitTarget::disc);
  EXPECT_EQ(trainer.init_learning_rate, 1e-3);
  EXPECT_EQ(trainer.learning_rate, 1e-3);
  EXPECT_EQ(trainer.isolated_learning_rate, 0.0);  // one rate for every sample
  EXPECT_EQ(trainer.loss.kind, recon::LossKind::l1);
  EXPECT_TRUE(trainer.loss.normalize);
  EXPECT_EQ(trainer.loss_threshold, 1e-3);
  EXPECT_TRUE(trainer.fresh_optimizer_per_sample);
  EXPECT_EQ(trainer.memory, recon::SampleMemory::previous_reconstruction);
  EXPECT_EQ(trainer.output_average, 0.0);
  EXPECT_EQ(trainer.init_candidates, 1);
}

}  // namespace
