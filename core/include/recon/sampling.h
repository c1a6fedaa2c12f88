#pragma once
/// Sampling patterns: where in k-space the sub-apertures are placed, in acquisition order.
#include "recon/choices.h"
#include "recon/aperture.h"

#include <cstdint>
#include <string>
#include <vector>

namespace recon {

/// Options for sample_centers().
/// Example: PatternOptions(PatternKind::fermat, 20, 256.0) — the seed workload's 20 Fermat centres.
struct PatternOptions {
  PatternOptions(PatternKind kind_, int64_t samples_, double r_max_) : kind(kind_), samples(samples_), r_max(r_max_) {}
  PatternKind kind;
  int64_t samples;      ///< number of centres, ≥ 1
  double r_max;         ///< largest centre radius in k-space pixels (PRISM: N/2)
  uint64_t seed = 0;    ///< used by the random and jittered patterns only
  int64_t star_arms = 6;
};

/// The centres, in acquisition order (PatternKind: recon/choices.h). Throws std::invalid_argument naming the field on
/// bad options.
std::vector<Center> sample_centers(const PatternOptions& options);

}  // namespace recon
