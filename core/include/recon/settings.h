#pragma once
/// Named settings presets: the project's robust defaults, and PRISM's own choices for side-by-side comparison.
#include "recon/choices.h"
#include "recon/decoder.h"
#include "recon/trainer.h"

#include <string>

namespace recon {


/// Writes the preset's choices into the options; fields a preset does not mention are left alone.
void apply_preset(SettingsPreset preset, DecoderOptions& decoder, TrainerOptions& trainer);

}  // namespace recon
