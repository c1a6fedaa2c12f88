#include "recon/settings.h"

#include <stdexcept>

namespace recon {

SettingsPreset parse_settings_preset(const std::string& name) {
  if (name == "robust") return SettingsPreset::robust;
  if (name == "prism-compat" || name == "prism_compat") return SettingsPreset::prism_compat;
  throw std::invalid_argument("unknown settings preset '" + name + "' (expected robust or prism-compat)");
}

std::string to_string(SettingsPreset preset) { return preset == SettingsPreset::robust ? "robust" : "prism-compat"; }

void apply_preset(SettingsPreset preset, DecoderOptions& decoder, TrainerOptions& trainer) {
  (void)trainer;
  switch (preset) {
    case SettingsPreset::robust:
      // The measurement is a modulus, so x and −x fit equally well; a non-negative output removes that branch.
      decoder.output_activation(OutputActivation::sigmoid);
      break;
    case SettingsPreset::prism_compat:
      decoder.output_activation(OutputActivation::none);
      break;
  }
}

}  // namespace recon
