#include "recon/scenarios.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace recon {

const std::vector<Scenario>& scenarios() {
  // Geometries chosen so that the nearest-neighbour overlap (neighbour_overlap) runs from none to strong; the
  // budgets are the seed workload's (50 steps per sample, 100 initialisation steps).
  static const std::vector<Scenario> kScenarios = {
      {"seed", "PRISM's seed workload: 20 Fermat sub-apertures of radius 20 on a 512 grid, no two overlapping",
       TargetKind::usaf, 512, 128, 20.0, PatternKind::fermat, 20, 50, 100},
      {"partial", "40 Fermat sub-apertures of radius 20 on a 256 grid, neighbours overlapping by ~17 %",
       TargetKind::usaf, 256, 64, 20.0, PatternKind::fermat, 40, 50, 100},
      {"dense", "60 Fermat sub-apertures of radius 24 on a 256 grid, neighbours overlapping by ~43 %: the data "
                "determine the object (ePIE recovers it almost exactly)",
       TargetKind::usaf, 256, 64, 24.0, PatternKind::fermat, 60, 50, 100},
  };
  return kScenarios;
}

const Scenario& scenario(const std::string& name) {
  const auto& all = scenarios();
  const auto found = std::find_if(all.begin(), all.end(), [&](const Scenario& s) { return s.name == name; });
  if (found != all.end()) return *found;
  std::string names;
  for (const auto& s : all) names += (names.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown scenario '" + name + "' (expected " + names + ")");
}

ReconstructionProblem make_problem(const Scenario& scene) {
  ReconstructionProblem p;
  p.ground_truth = synthetic_target(scene.target, scene.object, scene.grid);
  p.object_size = scene.object;
  p.radius = scene.radius;
  p.centers = sample_centers(PatternOptions(scene.pattern, scene.samples, static_cast<double>(scene.grid) / 2.0));
  return p;
}

double neighbour_overlap(const std::vector<Center>& centers, double radius) {
  if (centers.size() < 2) return 0.0;
  double total = 0.0;
  for (size_t i = 0; i < centers.size(); ++i) {
    double nearest = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < centers.size(); ++j) {
      if (i != j) nearest = std::min(nearest, std::hypot(centers[i].y - centers[j].y, centers[i].x - centers[j].x));
    }
    // Ptychography's linear overlap of two discs of diameter 2r whose centres are d apart: 1 − d/(2r), 0 when apart.
    total += std::max(0.0, 1.0 - nearest / (2.0 * radius));
  }
  return total / static_cast<double>(centers.size());
}

double neighbour_overlap(const Scenario& scene) {
  return neighbour_overlap(sample_centers(PatternOptions(scene.pattern, scene.samples, static_cast<double>(scene.grid) / 2.0)),
                           scene.radius);
}

int64_t samples_for_overlap(PatternOptions pattern, double radius, double target, int64_t max_samples) {
  if (!(target >= 0.0 && target < 1.0)) throw std::invalid_argument("samples_for_overlap: target must be in [0, 1)");
  if (max_samples < 1) throw std::invalid_argument("samples_for_overlap: max_samples must be >= 1");
  int64_t best = 1;
  double best_distance = std::numeric_limits<double>::infinity();
  for (int64_t count = 1; count <= max_samples; ++count) {
    pattern.samples = count;
    const double overlap = neighbour_overlap(sample_centers(pattern), radius);
    const double distance = std::abs(overlap - target);
    if (distance <= best_distance) best = count, best_distance = distance;
    // The overlap grows with the count, if not strictly: well past the target, no later count comes closer.
    if (overlap > target + 0.15) break;
  }
  return best;
}

}  // namespace recon
