#pragma once
// How many discs disc_mask() has drawn in this process: what a pipeline's per-sample geometry costs, counted where it
// is drawn (one relaxed atomic increment per disc), so that a caller can tell a disc drawn once per sample from one
// drawn again by every reader.
#include <cstdint>

namespace recon::detail {

int64_t discs_drawn();

}  // namespace recon::detail
