// Contract: the Fermat spiral reproduces PRISM's centres; every pattern gives the requested count inside r_max,
// starts at DC where PRISM does, and is fixed by its seed.
#include "recon/sampling.h"
#include "test_util.h"

#include <cmath>

namespace {

constexpr double kCentreTolerance = 0.01;  // the reference values are quoted to two decimals

TEST(sampling, fermat_matches_prism_centres) {
  auto c = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 100, 256.0));
  ASSERT_EQ(c.size(), 100u);
  const double expected[][2] = {{0.0, 0.0}, {17.29, -18.88}, {-36.07, 3.17}, {35.19, 26.98}, {-8.92, -50.42}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(c[i].y, expected[i][0], kCentreTolerance) << "centre " << i;
    EXPECT_NEAR(c[i].x, expected[i][1], kCentreTolerance) << "centre " << i;
  }
  EXPECT_LT(std::hypot(c.back().y, c.back().x), 256.0);
  EXPECT_NEAR(std::hypot(c.back().y, c.back().x), 254.7, 0.05);
}

TEST(sampling, every_pattern_has_the_requested_count_inside_r_max) {
  for (auto kind : {recon::PatternKind::fermat, recon::PatternKind::random, recon::PatternKind::rings,
                    recon::PatternKind::jittered, recon::PatternKind::star}) {
    for (int64_t n : {1, 2, 7, 20, 64}) {
      recon::PatternOptions o(kind, n, 100.0);
      o.seed = 3;
      auto c = recon::sample_centers(o);
      ASSERT_EQ(static_cast<int64_t>(c.size()), n) << recon::to_string(kind);
      for (const auto& p : c) EXPECT_LE(std::hypot(p.y, p.x), 100.0 + 1e-9) << recon::to_string(kind);
    }
  }
}

// How a pattern fills the disc, from its documented construction: the mean of (r / r_max)² is 1/2 when centres
// are uniform over the disc's area (fermat, random, jittered, and rings with counts proportional to the radius)
// and 1/3 when they are equally spaced along radii (star). A pattern uniform in r instead of in area gives 1/3.
TEST(sampling, every_pattern_fills_the_disc_as_documented) {
  constexpr double kRMax = 100.0;
  constexpr int64_t kCentres = 1000;  // random's mean then has a standard deviation of 0.009
  const std::pair<recon::PatternKind, double> expected[] = {{recon::PatternKind::fermat, 0.5},
                                                            {recon::PatternKind::random, 0.5},
                                                            {recon::PatternKind::jittered, 0.5},
                                                            {recon::PatternKind::rings, 0.5},
                                                            {recon::PatternKind::star, 1.0 / 3.0}};
  for (const auto& [kind, mean_r2] : expected) {
    recon::PatternOptions o(kind, kCentres, kRMax);
    o.seed = 5;
    const auto c = recon::sample_centers(o);
    double r2 = 0.0, cos_sum = 0.0, sin_sum = 0.0;
    for (const auto& p : c) {
      r2 += (p.y * p.y + p.x * p.x) / (kRMax * kRMax);
      const double r = std::hypot(p.y, p.x);
      if (r > 0.0) cos_sum += p.x / r, sin_sum += p.y / r;
    }
    const double n = static_cast<double>(c.size());
    EXPECT_NEAR(r2 / n, mean_r2, 0.05) << recon::to_string(kind);
    // No preferred direction: the mean unit vector is near zero (random's has a standard deviation of 0.022).
    EXPECT_LT(std::hypot(cos_sum, sin_sum) / n, 0.1) << recon::to_string(kind);
  }
}

TEST(sampling, random_is_fixed_by_its_seed_and_starts_at_dc) {
  recon::PatternOptions o(recon::PatternKind::random, 30, 200.0);
  o.seed = 11;
  auto a = recon::sample_centers(o), b = recon::sample_centers(o);
  o.seed = 12;
  auto c = recon::sample_centers(o);
  EXPECT_EQ(a.front().y, 0.0);
  EXPECT_EQ(a.front().x, 0.0);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].y, b[i].y);
    EXPECT_EQ(a[i].x, b[i].x);
  }
  EXPECT_NE(a[5].y, c[5].y);
}

// Acquisition order is centre-out for every pattern (recon/choices.h): the first sample is the innermost, which the
// robust initialisation fits as the object's low-pass picture.
TEST(sampling, every_pattern_is_acquired_centre_out) {
  for (const auto& [kind, name] : recon::Choices<recon::PatternKind>::table) {
    for (const int64_t n : {2, 7, 20, 64}) {
      for (const uint64_t seed : {0u, 3u}) {
        recon::PatternOptions o(kind, n, 100.0);
        o.seed = seed;
        const auto c = recon::sample_centers(o);
        for (size_t i = 1; i < c.size(); ++i) {
          if (std::hypot(c[i - 1].y, c[i - 1].x) <= std::hypot(c[i].y, c[i].x) + 1e-9) continue;
          ADD_FAILURE() << name << ", " << n << " samples, seed " << seed << ": centre " << i
                        << " is nearer DC than centre " << i - 1;
          break;  // one line per pattern and count
        }
      }
    }
  }
}

TEST(sampling, names_round_trip_and_bad_input_is_rejected) {
  for (const char* name : {"fermat", "random", "rings", "jittered", "star"}) {
    EXPECT_EQ(recon::to_string(recon::parse_choice<recon::PatternKind>(name)), name);
  }
  EXPECT_THROW(recon::parse_choice<recon::PatternKind>("spiral"), std::invalid_argument);
  EXPECT_THROW(recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 0, 10.0)), std::invalid_argument);
}

}  // namespace
