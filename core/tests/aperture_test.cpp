// Contract: disc masks use PRISM's inclusive float32 test on centred coordinates; unions are ORs; the bounding
// box contains the whole disc.
#include "recon/aperture.h"
#include "test_util.h"

namespace {

TEST(aperture, disc_of_radius_20_has_1257_pixels) {
  EXPECT_EQ(recon::disc_mask(512, {0.0, 0.0}, 20.0).sum().item<int64_t>(), 1257);
  EXPECT_EQ(recon::disc_mask(512, {31.0, -7.0}, 20.0).sum().item<int64_t>(), 1257);
}

TEST(aperture, disc_is_centred_on_index_n_over_2) {
  auto m = recon::disc_mask(64, {0.0, 0.0}, 3.0);
  EXPECT_TRUE(m[32][32].item<bool>());
  EXPECT_TRUE(m[32][35].item<bool>());   // inclusive: distance exactly r
  EXPECT_FALSE(m[32][36].item<bool>());
  EXPECT_TRUE(m[29][32].item<bool>());
}

TEST(aperture, sub_pixel_centre_is_not_rounded) {
  auto a = recon::disc_mask(128, {0.0, 0.4}, 5.0), b = recon::disc_mask(128, {0.0, 0.6}, 5.0);
  EXPECT_FALSE(at::equal(a, b));
}

TEST(aperture, union_is_logical_or) {
  std::vector<recon::Center> c = {{0, 0}, {10, 10}};
  auto u = recon::union_mask(64, c, 4.0);
  EXPECT_TRUE(at::equal(u, recon::disc_mask(64, c[0], 4.0) | recon::disc_mask(64, c[1], 4.0)));
  EXPECT_EQ(recon::union_mask(64, {}, 4.0).sum().item<int64_t>(), 0);
}

TEST(aperture, bounding_box_contains_the_disc) {
  for (recon::Center c : {recon::Center{17.29, -18.88}, recon::Center{-250.0, 250.0}, recon::Center{0.5, 0.5}}) {
    auto mask = recon::disc_mask(512, c, 20.0);
    auto box = recon::disc_bounding_box(512, c, 20.0);
    EXPECT_EQ(mask.narrow(0, box.row0, box.rows()).narrow(1, box.col0, box.cols()).sum().item<int64_t>(), mask.sum().item<int64_t>());
    EXPECT_LE(box.rows(), 45);
  }
}

TEST(aperture, rejects_bad_arguments) {
  EXPECT_THROW(recon::disc_mask(0, {}, 3.0), std::invalid_argument);
  EXPECT_THROW(recon::disc_mask(16, {}, 0.0), std::invalid_argument);
}

}  // namespace
