#pragma once
// The one number of a settings preset that the command line checks against before anything runs, free of LibTorch:
// how many initialisation candidates it draws. apply_preset (recon/settings.h) sets it from here.
#include "recon/choices.h"

#include <cstdint>

namespace recon {

/// TrainerOptions::init_candidates of `preset`: the robust preset's eight draws
/// (docs/decisions/2026-11-23-multi-start-initialisation.md); PRISM initialises the seed's own draw only.
constexpr int64_t preset_init_candidates(SettingsPreset preset) {
  switch (preset) {
    case SettingsPreset::robust:
      return 8;
    case SettingsPreset::prism_compat:
      return 1;
  }
  return 1;
}

}  // namespace recon
