// Contract: the ePIE baseline uses each sample's own pupil and amplitude measurements, so with dense k-space
// coverage it recovers the object far better than its starting point.
#include "recon/epie.h"
#include "recon/sampling.h"
#include "recon/targets.h"
#include "test_util.h"

namespace {

TEST(epie, dense_coverage_recovers_the_object) {
  recon::ReconstructionProblem p;
  p.ground_truth = recon::synthetic_target(recon::TargetKind::planet, 16, 64);
  p.object_size = 16;
  p.radius = 8.0;
  p.centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 40, 32.0));
  recon::EpieOptions o;
  o.epochs = 30;
  auto r = recon::epie_reconstruct(p, o);
  ASSERT_EQ(r.per_epoch.size(), 30u);
  EXPECT_GT(r.per_epoch.back().psnr_db, r.per_epoch.front().psnr_db + 3.0);
  EXPECT_GT(r.per_epoch.back().psnr_db, 20.0);
  EXPECT_GE(r.reconstruction.min().item<float>(), 0.0f);
}

}  // namespace
