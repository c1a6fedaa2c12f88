#pragma once
/// Sampling patterns: where in k-space the sub-apertures are placed, in acquisition order.
#include "recon/aperture.h"

#include <cstdint>
#include <string>
#include <vector>

namespace recon {

enum class PatternKind {
  fermat,    ///< golden-angle spiral, exactly PRISM's formula (first centre at DC, sorted by radius)
  random,    ///< uniform in the disc of radius r_max, seeded, one centre forced to DC, sorted by radius
  rings,     ///< DC, then concentric rings with point counts proportional to the ring radius
  jittered,  ///< square grid inside the disc with seeded ±10 % Gaussian jitter, sorted by radius
  star,      ///< DC, then points along equally spaced radial arms, innermost first
};

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

/// The centres, in acquisition order. Throws std::invalid_argument naming the field on bad options.
std::vector<Center> sample_centers(const PatternOptions& options);

/// Parses "fermat", "random", "rings", "jittered" or "star"; throws std::invalid_argument otherwise.
PatternKind parse_pattern_kind(const std::string& name);
std::string to_string(PatternKind kind);

}  // namespace recon
