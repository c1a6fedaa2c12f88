// Contract: a problem's limits (its grid, object size and radius) are one rule each (recon/limits.h), and every entry
// point (the command line's validation, reconstruct(), ePIE, the decoder and the aperture drawing) refuses the same
// values in the same words, each prefixed with the name its caller knows the value by; the values inside the limits are
// accepted by all of them.
#include "recon/aperture.h"
#include "recon/epie.h"
#include "recon/limits.h"
#include "recon/trainer.h"
#include "recon/sampling.h"
#include "recon/targets.h"
#include "recon_args.h"
#include "test_util.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace {

constexpr int64_t kGrid = 64;

recon::ReconstructionProblem problem(double radius, int64_t object) {
  recon::ReconstructionProblem p;
  p.ground_truth = recon::synthetic_target(recon::TargetKind::planet, 16, kGrid);
  p.object_size = object;
  p.radius = radius;
  p.centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 4, 8.0));
  return p;
}

// The message an entry point refuses with, "" when it accepts.
template <typename Run>
std::string refusal(Run run) {
  try {
    run();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string command_line(double radius, int64_t object) {
  recon::cli::ReconArgs a;
  a.grid = kGrid;
  a.object = object;
  a.radius = radius;
  a.samples = 4;
  return recon::cli::validate(a);
}

std::string trainer(double radius, int64_t object) {
  return refusal([&] {
    recon::ProgressiveDecoder decoder(recon::DecoderOptions(kGrid, object >= 0 && object <= kGrid ? object : 16));
    recon::TrainerOptions o;
    o.init_steps = 0;
    o.steps_per_sample = 0;
    auto p = problem(radius, object);
    if (object < 0 || object > kGrid) p.object_size = object;
    (void)recon::reconstruct(decoder, p, o);
  });
}

std::string epie(double radius, int64_t object) {
  return refusal([&] {
    recon::EpieOptions o;
    o.epochs = 1;
    (void)recon::epie_reconstruct(problem(radius, object), o);
  });
}

}  // namespace

TEST(limits, every_entry_point_refuses_a_radius_outside_the_rule_in_its_words) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const double radius : {0.0, 0.5, -3.0, nan, inf, 64.5, 100.0, 1e9, 64.0000001}) {
    SCOPED_TRACE(radius);
    const auto why = recon::radius_refusal(radius, kGrid);
    ASSERT_FALSE(why.empty());
    if (std::isfinite(radius)) {
      EXPECT_EQ(std::stod(why.substr(0, why.find(':'))), radius) << "the refused value as given: " << why;
    }
    EXPECT_EQ(command_line(radius, 16), "--radius " + why);
    EXPECT_EQ(trainer(radius, 16), "ReconstructionProblem::radius " + why);
    EXPECT_EQ(epie(radius, 16), "epie: ReconstructionProblem::radius " + why);
    EXPECT_EQ(refusal([&] { (void)recon::disc_mask(kGrid, {}, radius); }), "aperture: radius " + why);
  }
  // A pupil wider than half the grid is clipped at its edge; the whole grid's is the widest.
  for (const double radius : {1.0, 8.0, 31.5, 40.0, 64.0}) {
    SCOPED_TRACE(radius);
    EXPECT_TRUE(recon::radius_refusal(radius, kGrid).empty());
    EXPECT_EQ(command_line(radius, 16), "");
    EXPECT_EQ(trainer(radius, 16), "");
    EXPECT_EQ(epie(radius, 16), "");
    EXPECT_EQ(refusal([&] { (void)recon::disc_mask(kGrid, {}, radius); }), "");
  }
}

TEST(limits, every_entry_point_refuses_an_object_size_outside_the_rule_in_its_words) {
  for (const int64_t object : {int64_t{5}, int64_t{-1}, kGrid + 1}) {
    SCOPED_TRACE(object);
    const auto why = recon::object_size_refusal(object, kGrid);
    ASSERT_FALSE(why.empty());
    EXPECT_EQ(command_line(8.0, object), "--object " + why);
    EXPECT_EQ(epie(8.0, object), "epie: ReconstructionProblem::object_size " + why);
  }
  // reconstruct() meets an object size the decoder was built for: the smallest the rule refuses.
  EXPECT_EQ(trainer(8.0, 5), "ReconstructionProblem::object_size " + recon::object_size_refusal(5, kGrid));
  EXPECT_EQ(command_line(8.0, kGrid), "");
  EXPECT_EQ(epie(8.0, kGrid), "");
}

TEST(limits, the_command_line_and_the_decoder_refuse_a_grid_outside_the_rule_in_the_same_words) {
  for (const int64_t grid : {int64_t{0}, int64_t{4}, int64_t{12}, int64_t{96}, int64_t{16384}, int64_t{-8}}) {
    SCOPED_TRACE(grid);
    const auto why = recon::grid_refusal(grid);
    ASSERT_FALSE(why.empty());
    recon::cli::ReconArgs a;
    a.grid = grid;
    EXPECT_EQ(recon::cli::validate(a), "--grid " + why);
    EXPECT_EQ(refusal([&] { recon::ProgressiveDecoder decoder(recon::DecoderOptions(grid, 6)); }), "DecoderOptions::grid_size " + why);
  }
  for (const int64_t grid : {recon::kMinGrid, int64_t{64}, recon::kMaxGrid}) EXPECT_TRUE(recon::grid_refusal(grid).empty());
}
