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

TEST(scenarios, dense_is_the_issue_scene) {
  const auto& d = recon::scenario("dense");
  EXPECT_EQ(d.grid, 256);
  EXPECT_EQ(d.object, 64);
  EXPECT_EQ(d.radius, 24.0);
  EXPECT_EQ(d.samples, 60);
  const auto problem = recon::make_problem(d);
  EXPECT_EQ(problem.ground_truth.sizes(), (std::vector<int64_t>{256, 256}));
  EXPECT_EQ(problem.centers.size(), 60u);
  EXPECT_EQ(problem.object_size, 64);
}

TEST(scenarios, overlap_grows_from_seed_to_dense) {
  // Linear overlap 1 − d/(2r) with the nearest neighbour, computed offline for these Fermat spirals: seed 0,
  // partial ≈ 0.17, dense ≈ 0.43.
  EXPECT_EQ(recon::neighbour_overlap(recon::scenario("seed")), 0.0);
  EXPECT_NEAR(recon::neighbour_overlap(recon::scenario("partial")), 0.173, 0.005);
  EXPECT_NEAR(recon::neighbour_overlap(recon::scenario("dense")), 0.427, 0.005);
}

}  // namespace
