// Contract: row losses follow their definitions (normalised L1/L2, DSSIM, composite) and are zero at the target.
#include "recon/losses.h"
#include "recon/metrics.h"
#include "test_util.h"

namespace {

constexpr double kTolerance = 1e-6;

TEST(losses, normalised_l1_of_zero_prediction_is_one) {
  auto t = at::rand({32, 32}) + 0.1;
  recon::LossOptions o;
  auto norm = recon::loss_normaliser(t, o);
  EXPECT_NEAR(recon::row_loss(at::zeros_like(t), t, norm, o).item<double>(), 1.0, kTolerance);
  o.kind = recon::LossKind::l2;
  norm = recon::loss_normaliser(t, o);
  EXPECT_NEAR(recon::row_loss(at::zeros_like(t), t, norm, o).item<double>(), 1.0, kTolerance);
}

TEST(losses, every_kind_is_zero_at_the_target_and_positive_elsewhere) {
  auto [a, b] = recon::testing::oracle_image_pair(64);
  a = a.to(at::kFloat);
  b = b.to(at::kFloat);
  for (const char* name : {"l1", "l2", "ssim", "ms-ssim", "composite"}) {
    recon::LossOptions o;
    o.kind = recon::parse_choice<recon::LossKind>(name);
    auto norm = recon::loss_normaliser(a, o);
    EXPECT_NEAR(recon::row_loss(a, a, norm, o).item<double>(), 0.0, kTolerance) << name;
    EXPECT_GT(recon::row_loss(b, a, norm, o).item<double>(), 1e-4) << name;
  }
  EXPECT_THROW(recon::parse_choice<recon::LossKind>("huber"), std::invalid_argument);
}

// Each loss name trains on its own definition, on the oracle pair whose metrics are checked against SciPy
// (metrics_test): a loss wired to another kind's formula (ms-ssim to ssim, say) still is zero at the target.
TEST(losses, every_kind_is_its_definition) {
  auto [a, b] = recon::testing::oracle_image_pair(64);
  const double l1 = (b - a).abs().mean().item<double>(), l2 = (b - a).pow(2).mean().item<double>();
  const double dssim = (1.0 - recon::ssim(b, a).item<double>()) / 2.0;
  const double ms_dssim = (1.0 - recon::ms_ssim(b, a).item<double>()) / 2.0;
  ASSERT_GT(std::abs(dssim - ms_dssim), 1e-4);  // the pair tells the two SSIM losses apart
  const auto one = at::ones({}, at::kDouble);
  for (const auto& [kind, name] : recon::Choices<recon::LossKind>::table) {
    double expected = 0.0;
    switch (kind) {
      case recon::LossKind::l1: expected = l1; break;
      case recon::LossKind::l2: expected = l2; break;
      case recon::LossKind::ssim: expected = dssim; break;
      case recon::LossKind::ms_ssim: expected = ms_dssim; break;
      case recon::LossKind::composite: expected = 0.7 * l1 + 0.3 * dssim; break;
    }
    recon::LossOptions o;
    o.kind = kind;
    EXPECT_NEAR(recon::row_loss(b, a, one, o).item<double>(), expected, 1e-9) << name;
  }
}

TEST(losses, composite_is_the_weighted_sum) {
  auto [a, b] = recon::testing::oracle_image_pair(32);
  recon::LossOptions o;
  o.kind = recon::LossKind::composite;
  const auto one = at::ones({}, at::kDouble);
  const double expected = 0.7 * (b - a).abs().mean().item<double>() + 0.3 * (1.0 - recon::ssim(b, a).item<double>()) / 2.0;
  EXPECT_NEAR(recon::row_loss(b, a, one, o).item<double>(), expected, 1e-12);
}

}  // namespace
