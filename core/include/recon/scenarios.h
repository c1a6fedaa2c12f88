#pragma once
/// Named reconstruction scenes with a known answer: a built-in target, a geometry and budgets, from sparse to dense
/// sub-aperture overlap. `recon reconstruct --scenario NAME` and the benchmark suites build their problems from here.
#include "recon/sampling.h"
#include "recon/targets.h"
#include "recon/trainer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace recon {

/// Example: scenario("dense") — USAF on a 256 grid, 60 overlapping Fermat sub-apertures of radius 24.
struct Scenario {
  std::string name;
  std::string summary;         ///< one line: what the scene tests
  TargetKind target = TargetKind::usaf;
  int64_t grid = 512;          ///< N
  int64_t object = 128;        ///< S
  double radius = 20.0;        ///< sub-aperture radius r, k-space pixels
  PatternKind pattern = PatternKind::fermat;
  int64_t samples = 20;
  int64_t steps_per_sample = 50;
  int64_t init_steps = 100;
};

/// Every built-in scenario, sparse to dense.
const std::vector<Scenario>& scenarios();

/// The scenario called `name`; throws std::invalid_argument listing the known names otherwise.
const Scenario& scenario(const std::string& name);

/// The scenario's problem: its target prepared on its grid, its centres (r_max = N/2), its radius.
ReconstructionProblem make_problem(const Scenario& scene);

/// Mean linear overlap of each sub-aperture with its nearest neighbour, 1 − d/(2r) (ptychography's measure; 0 when no
/// two discs touch): how strongly the measurements constrain the phase, reported beside the scene.
double neighbour_overlap(const Scenario& scene);

/// The same measure for any centres of discs of `radius`; 0 for fewer than two centres.
double neighbour_overlap(const std::vector<Center>& centers, double radius);

/// The sample count of `pattern` (its own count ignored) whose neighbour_overlap at `radius` is closest to `target`,
/// the larger count on a tie: target 0 gives the most discs of which no two touch. Counts are tried from 1 upwards
/// until one overlaps by more than target + 0.15 or max_samples is reached (the overlap grows with the count, if not
/// strictly; for a seeded pattern, nearest among the counts tried). A sweep of overlap at a fixed radius and r_max
/// keeps the measured band and varies only how often it is measured.
/// Throws std::invalid_argument for a target outside [0, 1) or max_samples < 1.
int64_t samples_for_overlap(PatternOptions pattern, double radius, double target, int64_t max_samples = 1000);

}  // namespace recon
