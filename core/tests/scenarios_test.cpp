// Contract: the built-in scenes have unique names, are found by name (an unknown name is refused with the list),
// build problems of their own geometry, and run from no overlap (seed) to strong overlap (dense).
#include "recon/scenarios.h"
#include "test_util.h"

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

// Each scene is the one docs/recon.md describes, budgets included: seed is PRISM's seed workload, dense the
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

}  // namespace
