// The measurement-only sample stop on loss sequences whose answer is known by hand.
#include "recon/fit_plateau.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

// The evaluation (0-based) at which the rule first says stop on `losses`, or -1 when it never does.
int first_stop(recon::FitPlateauOptions options, const std::vector<double>& losses) {
  recon::FitPlateau rule(options);
  for (size_t t = 0; t < losses.size(); ++t) {
    rule.update(losses[t]);
    if (rule.should_stop()) return static_cast<int>(t);
  }
  return -1;
}

}  // namespace

TEST(fit_plateau, off_never_stops) {
  EXPECT_EQ(first_stop({}, {1, 1, 1, 1, 1, 1}), -1);
  EXPECT_EQ(first_stop({0, 0.5}, {1, 1, 1, 1, 1, 1}), -1);
}

TEST(fit_plateau, a_flat_loss_stops_after_exactly_one_window) {
  // Evaluation t = window is the first with a loss `window` updates earlier to compare with.
  EXPECT_EQ(first_stop({3, 0.01}, {2, 2, 2, 2, 2, 2}), 3);
  EXPECT_EQ(first_stop({1, 0.01}, {2, 2, 2}), 1);
}

TEST(fit_plateau, a_steady_fall_faster_than_the_margin_never_stops) {
  // Halving at every update: the best falls by 1 - 0.5^3 = 87.5 % over 3 updates.
  std::vector<double> halving;
  for (int t = 0; t < 40; ++t) halving.push_back(std::pow(0.5, t));
  EXPECT_EQ(first_stop({3, 0.8}, halving), -1);
  EXPECT_EQ(first_stop({3, 0.9}, halving), 3);  // 87.5 % < 90 %
}

TEST(fit_plateau, the_margin_decides) {
  // 100 -> 89 over the first 2 updates is an 11 % fall, 95 -> 88 over the next 2 a 7.4 % one.
  EXPECT_EQ(first_stop({2, 0.10}, {100, 95, 89, 88, 88}), 3);
  EXPECT_EQ(first_stop({2, 0.12}, {100, 95, 89, 88, 88}), 2);
  EXPECT_EQ(first_stop({2, 0.07}, {100, 95, 89, 88, 88}), 4);  // 89 -> 88 over the last two: 1.1 %
}

TEST(fit_plateau, reads_the_best_so_far_not_the_last_value) {
  // A spike is not a plateau (the best kept falling through it), and a rebound to an old level is not progress.
  EXPECT_EQ(first_stop({2, 0.05}, {100, 80, 500, 60, 45, 44, 44}), 6);
  EXPECT_EQ(first_stop({2, 0.05}, {100, 50, 100, 100, 100}), 3);
}

TEST(fit_plateau, a_fall_of_the_whole_loss_is_needed_at_margin_one) {
  // min_fall = 1 asks for the loss to reach zero within every window: every sample ends after `window` updates.
  EXPECT_EQ(first_stop({4, 1.0}, {9, 5, 2, 1, 0.5, 0.1}), 4);
}

TEST(fit_plateau, nan_counts_as_no_improvement) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(first_stop({2, 0.05}, {nan, nan, nan, nan}), 2);       // no finite loss in the window
  EXPECT_EQ(first_stop({2, 0.05}, {nan, 10, 9, 9, 9}), 4);         // a first finite loss is progress
  EXPECT_EQ(first_stop({2, 0.05}, {10, 5, nan, nan, 2}), 3);       // the best stays at 5 through the NaNs
}
