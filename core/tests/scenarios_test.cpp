// Contract: the built-in scenes have unique names, are found by name (an unknown name is refused with the list),
// build problems of their own geometry, and run from no overlap (seed) to strong overlap (dense). samples_for_overlap
// picks the count whose overlap is nearest the target (the largest count of untouching discs for 0).
#include "recon/scenarios.h"
#include "test_util.h"

#include <cmath>

namespace {

TEST(scenarios, names_are_unique_and_found) {
  const auto& all = recon::scenarios();
  ASSERT_GE(all.size(), 3u);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(&recon::scenario(all[i].name), &all[i]);
    for (size_t j = i + 1; j < all.size(); ++j) EXPECT_NE(all[i].name, all[j].name);
  }
  try {
    recon::scenario("nowhere");
    FAIL() << "an unknown scenario was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("dense"), std::string::npos) << e.what();
  }
}

// Each scene is the one docs/reference/recon.md describes, budgets included: seed is PRISM's seed workload, dense the
// overlapping scene, partial the scene between them.
TEST(scenarios, every_scene_is_the_documented_one) {
  struct Expected {
    const char* name;
    recon::TargetKind target;
    int64_t grid, object;
    double radius;
    int64_t samples, steps_per_sample, init_steps;
  };
  const Expected expected[] = {{"seed", recon::TargetKind::usaf, 512, 128, 20.0, 20, 50, 100},
                               {"partial", recon::TargetKind::usaf, 256, 64, 20.0, 40, 50, 100},
                               {"dense", recon::TargetKind::usaf, 256, 64, 24.0, 60, 50, 100}};
  for (const auto& e : expected) {
    const auto& d = recon::scenario(e.name);
    EXPECT_EQ(d.target, e.target) << e.name;
    EXPECT_EQ(d.grid, e.grid) << e.name;
    EXPECT_EQ(d.object, e.object) << e.name;
    EXPECT_EQ(d.radius, e.radius) << e.name;
    EXPECT_EQ(d.pattern, recon::PatternKind::fermat) << e.name;
    EXPECT_EQ(d.samples, e.samples) << e.name;
    EXPECT_EQ(d.steps_per_sample, e.steps_per_sample) << e.name;
    EXPECT_EQ(d.init_steps, e.init_steps) << e.name;
    const auto problem = recon::make_problem(d);
    EXPECT_EQ(problem.ground_truth.sizes(), (std::vector<int64_t>{e.grid, e.grid})) << e.name;
    EXPECT_EQ(static_cast<int64_t>(problem.centers.size()), e.samples) << e.name;
    EXPECT_EQ(problem.object_size, e.object) << e.name;
  }
}

TEST(scenarios, overlap_grows_from_seed_to_dense) {
  // Linear overlap 1 − d/(2r) with the nearest neighbour, computed offline for these Fermat spirals: seed 0,
  // partial ≈ 0.17, dense ≈ 0.43.
  EXPECT_EQ(recon::neighbour_overlap(recon::scenario("seed")), 0.0);
  EXPECT_NEAR(recon::neighbour_overlap(recon::scenario("partial")), 0.173, 0.005);
  EXPECT_NEAR(recon::neighbour_overlap(recon::scenario("dense")), 0.427, 0.005);
}

TEST(scenarios, the_overlap_of_any_centres_is_the_scenes_measure) {
  const auto& dense = recon::scenario("dense");
  EXPECT_EQ(recon::neighbour_overlap(recon::make_problem(dense).centers, dense.radius), recon::neighbour_overlap(dense));
  EXPECT_EQ(recon::neighbour_overlap({{0.0, 0.0}}, 10.0), 0.0);
  // Two discs of radius 10, 5 apart: each overlaps the other by 1 − 5/20.
  EXPECT_DOUBLE_EQ(recon::neighbour_overlap({{0.0, 0.0}, {3.0, 4.0}}, 10.0), 0.75);
}

// The dense scene's geometry (Fermat, r_max 128, radius 24) at counts 1..max: the overlap each count gives.
double overlap_at(int64_t count) {
  recon::PatternOptions pattern(recon::PatternKind::fermat, count, 128.0);
  return recon::neighbour_overlap(recon::sample_centers(pattern), 24.0);
}

TEST(scenarios, samples_for_overlap_picks_the_count_nearest_the_target) {
  const recon::PatternOptions pattern(recon::PatternKind::fermat, 1, 128.0);
  for (const double target : {0.17, 0.3, recon::neighbour_overlap(recon::scenario("dense")), 0.6}) {
    const int64_t count = recon::samples_for_overlap(pattern, 24.0, target);
    const double distance = std::abs(overlap_at(count) - target);
    for (int64_t other = 1; other <= 300; ++other) {
      EXPECT_LE(distance, std::abs(overlap_at(other) - target) + 1e-12) << "target " << target << ": " << other
                                                                         << " samples come closer than " << count;
    }
  }
  EXPECT_EQ(recon::samples_for_overlap(pattern, 24.0, recon::neighbour_overlap(recon::scenario("dense"))), 60);
}

TEST(scenarios, samples_for_overlap_zero_is_the_most_discs_that_do_not_touch) {
  const recon::PatternOptions pattern(recon::PatternKind::fermat, 1, 128.0);
  const int64_t count = recon::samples_for_overlap(pattern, 24.0, 0.0);
  EXPECT_GT(count, 1);
  EXPECT_EQ(overlap_at(count), 0.0);
  EXPECT_GT(overlap_at(count + 1), 0.0);
  EXPECT_THROW(recon::samples_for_overlap(pattern, 24.0, 1.0), std::invalid_argument);
  EXPECT_THROW(recon::samples_for_overlap(pattern, 24.0, -0.1), std::invalid_argument);
  EXPECT_THROW(recon::samples_for_overlap(pattern, 24.0, 0.3, 0), std::invalid_argument);
}

}  // namespace
