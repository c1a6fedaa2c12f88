#pragma once
/// Named settings presets: the project's robust defaults, and PRISM's own choices for side-by-side comparison.
#include "recon/decoder.h"
#include "recon/trainer.h"

#include <string>

namespace recon {

enum class SettingsPreset {
  robust,        ///< default: choices that make the result stable across seeds (see apply_preset)
  prism_compat,  ///< PRISM's runner: no output activation, everything else as in the reference
};

SettingsPreset parse_settings_preset(const std::string& name);  ///< "robust" or "prism-compat"; throws otherwise
std::string to_string(SettingsPreset preset);

/// Writes the preset's choices into the options; fields a preset does not mention are left alone.
void apply_preset(SettingsPreset preset, DecoderOptions& decoder, TrainerOptions& trainer);

}  // namespace recon
