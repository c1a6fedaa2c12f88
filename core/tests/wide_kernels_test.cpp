// The kernels with an AVX-512 version (RECON_WIDE_KERNEL, core/src/cpu_dispatch.h) give the same bits as their narrow
// versions: the same operations per element in the same order, only more elements per instruction.
#include "cpu_dispatch.h"
#include "small_conv.h"
#include "strided_upsample.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

// Restores the process's default choice when a test ends, whatever it set.
struct DefaultWidthAfterwards {
  const bool default_choice = recon::detail::wide_kernels();
  ~DefaultWidthAfterwards() { recon::detail::set_wide_kernels(default_choice); }
};

// Bit for bit, signed zeros and NaNs included (at::equal compares values: −0 equals +0).
bool same_bits(const at::Tensor& a, const at::Tensor& b) {
  return a.sizes() == b.sizes() && at::equal(a.contiguous().view(at::kInt), b.contiguous().view(at::kInt));
}

struct Upsampled {
  at::Tensor y, grad_x, grad_weight;
};

Upsampled upsample_forward_and_backward(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& output_weights) {
  const auto xr = x.clone().requires_grad_(true), wr = weight.clone().requires_grad_(true);
  const auto y = recon::detail::upsample_k4_s2(xr, wr);
  (y * output_weights).sum().backward();
  return {y.detach(), xr.grad(), wr.grad()};
}

TEST(wide_kernels, follow_the_cpu_and_the_override) {
  DefaultWidthAfterwards restore;
  EXPECT_FALSE(recon::detail::set_wide_kernels(false));
  EXPECT_FALSE(recon::detail::wide_kernels());
  const bool can = recon::detail::set_wide_kernels(true);
  EXPECT_EQ(recon::detail::wide_kernels(), can);
#if RECON_WIDE_KERNELS_BUILT
  EXPECT_EQ(can, static_cast<bool>(__builtin_cpu_supports("x86-64-v4")));
#else
  EXPECT_FALSE(can);
#endif
}

// The phase layers at channel counts that leave every block size's remainder in both widths (input and output
// channels in blocks of four or eight; output channels in vectors of eight or sixteen) and at sizes whose rows and
// spans end in a partial block or hold several, the seed workload's three layers among them: output and both
// gradients bit for bit.
TEST(wide_kernels, phase_upsampling_gives_the_narrow_kernels_bits) {
  DefaultWidthAfterwards restore;
  if (!recon::detail::set_wide_kernels(true)) GTEST_SKIP() << "this CPU or build has no x86-64-v4 kernels";
  at::manual_seed(21);
  struct Shape {
    int64_t cin, cout, h, w;
  };
  std::vector<Shape> shapes = {{64, 32, 16, 16}, {32, 16, 32, 32}, {16, 8, 64, 64}};
  for (const auto& [h, w] : std::vector<std::pair<int64_t, int64_t>>{{9, 9}, {8, 12}, {5, 17}, {11, 18}, {3, 35}})
    for (const int64_t cin : {1, 2, 3, 4, 5, 6, 7, 8, 9, 17})
      for (const int64_t cout : {1, 2, 3, 5, 6, 7, 8, 12, 14, 15, 16, 24, 32, 40, 48}) shapes.push_back({cin, cout, h, w});
  for (const auto& s : shapes) {
    SCOPED_TRACE("C_in " + std::to_string(s.cin) + ", C_out " + std::to_string(s.cout) + ", " + std::to_string(s.h) +
                 " × " + std::to_string(s.w));
    const auto x = at::randn({1, s.cin, s.h, s.w}), weight = at::randn({s.cin, s.cout, 4, 4});
    const auto output_weights = at::randn({1, s.cout, 2 * s.h, 2 * s.w});
    ASSERT_TRUE(recon::detail::set_wide_kernels(true));
    const auto wide = upsample_forward_and_backward(x, weight, output_weights);
    recon::detail::set_wide_kernels(false);
    const auto narrow = upsample_forward_and_backward(x, weight, output_weights);
    EXPECT_TRUE(same_bits(wide.y, narrow.y));
    EXPECT_TRUE(same_bits(wide.grad_x, narrow.grad_x));
    EXPECT_TRUE(same_bits(wide.grad_weight, narrow.grad_weight));
  }
}

// The small convolutions at widths whose rows end after blocks of thirty-two, sixteen and eight columns and chunks,
// channel counts that leave every remainder of the blocks of four, both paddings, with and without a bias gradient,
// and the seed workload's three layers: output and every gradient bit for bit.
TEST(wide_kernels, small_convolutions_give_the_narrow_kernels_bits) {
  DefaultWidthAfterwards restore;
  if (!recon::detail::set_wide_kernels(true)) GTEST_SKIP() << "this CPU or build has no x86-64-v4 kernels";
  at::manual_seed(22);
  struct Shape {
    int64_t cin, cout, h, w, padding;
    bool bias_gradient;
  };
  std::vector<Shape> shapes = {{8, 4, 128, 128, 1, false}, {4, 2, 256, 256, 1, false}, {2, 1, 514, 514, 0, true}};
  for (const int64_t padding : {0, 1})
    for (const int64_t width : {3, 9, 18, 26, 34, 50, 58, 66, 83})
      for (const int64_t cin : {1, 2, 3, 5, 7})
        for (const int64_t cout : {1, 2, 3, 4, 5, 7, 8})
          shapes.push_back({cin, cout, 1 + (cin + cout + width) % 5 + 2, width, padding, (cin + cout + width) % 2 == 0});
  for (const auto& s : shapes) {
    SCOPED_TRACE("C_in " + std::to_string(s.cin) + ", C_out " + std::to_string(s.cout) + ", " + std::to_string(s.h) +
                 " × " + std::to_string(s.w) + ", padding " + std::to_string(s.padding));
    const auto x = at::randn({1, s.cin, s.h, s.w}), weight = at::randn({s.cout, s.cin, 3, 3}), bias = at::randn({s.cout});
    const int64_t ho = s.h + 2 * s.padding - 2, wo = s.w + 2 * s.padding - 2;
    const auto output_weights = at::randn({1, s.cout, ho, wo});
    auto run = [&] {
      const auto xr = x.clone().requires_grad_(true), wr = weight.clone().requires_grad_(true),
                 br = bias.clone().requires_grad_(s.bias_gradient);
      const auto y = recon::detail::small_conv3x3(xr, wr, br, s.padding);
      (y * output_weights).sum().backward();
      std::vector<at::Tensor> results{y.detach(), xr.grad(), wr.grad()};
      if (s.bias_gradient) results.push_back(br.grad());
      return results;
    };
    ASSERT_TRUE(recon::detail::set_wide_kernels(true));
    const auto wide = run();
    recon::detail::set_wide_kernels(false);
    const auto narrow = run();
    ASSERT_EQ(wide.size(), narrow.size());
    for (size_t i = 0; i < wide.size(); ++i)
      EXPECT_TRUE(same_bits(wide[i], narrow[i])) << "result " << i << " of output, input, weight and bias gradients";
  }
}

}  // namespace
