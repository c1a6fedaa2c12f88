// Contract: the decoder is PRISM's ProgressiveDecoder — same parameter counts, output geometry and support —
// and the matrix-vector first layer computes the same function as the transposed convolution.
#include "recon/decoder.h"
#include "small_conv.h"
#include "strided_upsample.h"
#include "test_util.h"

#include <torch/autograd.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr double kMatvecTolerance = 1e-5;  // float32 sums of 512 terms in a different order

TEST(decoder, parameter_count_matches_prism_at_512_128) {
  recon::ProgressiveDecoder d(recon::DecoderOptions(512, 128));
  EXPECT_EQ(recon::parameter_count(*d), 2797431);
}

TEST(decoder, parameter_count_matches_prism_at_1024_512) {
  recon::ProgressiveDecoder d(recon::DecoderOptions(1024, 512));
  EXPECT_EQ(recon::parameter_count(*d), 11187799);
}

TEST(decoder, other_documented_counts) {
  EXPECT_EQ(recon::parameter_count(*recon::ProgressiveDecoder(recon::DecoderOptions(512, 256))), 2797655);
  EXPECT_EQ(recon::parameter_count(*recon::ProgressiveDecoder(recon::DecoderOptions(256, 128))), 699735);
  EXPECT_EQ(recon::parameter_count(*recon::ProgressiveDecoder(recon::DecoderOptions(128, 64))), 175063);
}

TEST(decoder, output_support_is_the_126_box_at_offset_193) {
  at::manual_seed(0);
  recon::ProgressiveDecoder d(recon::DecoderOptions(512, 128));
  torch::NoGradGuard no_grad;
  auto out = d->forward();
  ASSERT_EQ(out.sizes(), (std::vector<int64_t>{1, 1, 512, 512}));
  auto nonzero = out.view({512, 512}).ne(0);
  auto rows = nonzero.any(1).nonzero().view(-1), cols = nonzero.any(0).nonzero().view(-1);
  EXPECT_EQ(rows.min().item<int64_t>(), 193);
  EXPECT_EQ(rows.max().item<int64_t>(), 318);
  EXPECT_EQ(cols.min().item<int64_t>(), 193);
  EXPECT_EQ(cols.max().item<int64_t>(), 318);
  EXPECT_EQ(d->object_offset(), 192);
  EXPECT_TRUE(at::equal(out.view({512, 512}).narrow(0, 192, 128).narrow(1, 192, 128), d->forward_object().view({128, 128})));
}

TEST(decoder, crop_case_uses_prism_offset) {
  // N=1024, S=73: the 126×126 trunk output is cropped with offset int((126 − 73)/2) + 1 = 27.
  at::manual_seed(0);
  recon::ProgressiveDecoder d(recon::DecoderOptions(1024, 73));
  torch::NoGradGuard no_grad;
  EXPECT_EQ(d->forward_object().sizes(), (std::vector<int64_t>{1, 1, 73, 73}));
  EXPECT_EQ(recon::parameter_count(*d), 11186679);
}

// Output and every parameter's gradient of `loss`, before and after `enable` turns one exact optimisation on, agree
// within float32 rounding.
void expect_same_function(recon::ProgressiveDecoder& d, const std::function<void()>& enable,
                          const std::function<at::Tensor(const at::Tensor&)>& loss) {
  auto reference = d->forward();
  loss(reference).backward();
  std::vector<at::Tensor> grads;
  for (auto& p : d->parameters()) grads.push_back(p.grad().clone());
  for (auto& p : d->parameters()) p.mutable_grad() = at::Tensor();

  enable();
  auto fast = d->forward();
  loss(fast).backward();
  EXPECT_LT(recon::testing::max_relative_difference(fast, reference), kMatvecTolerance);
  auto params = d->parameters();
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_LT(recon::testing::max_relative_difference(params[i].grad(), grads[i]), kMatvecTolerance) << "parameter " << i;
  }
}

TEST(decoder, matvec_first_layer_equals_transposed_convolution) {
  at::manual_seed(5);
  recon::ProgressiveDecoder d(recon::DecoderOptions(128, 32));
  expect_same_function(d, [&] { d->options.kernels().matvec_first_layer = true; }, [](const at::Tensor& y) { return y.sum(); });
}

TEST(decoder, subpixel_upsampling_equals_transposed_convolution) {
  at::manual_seed(6);
  recon::ProgressiveDecoder d(recon::DecoderOptions(128, 64));
  expect_same_function(d, [&] { d->options.kernels().subpixel_upsampling = true; }, [](const at::Tensor& y) { return y.pow(2).sum(); });
}

// The seed workload's decoder (N=512, S=128) seeded with `seed`, checked by expect_same_function with a
// pixel-weighted squared loss so that every gradient pixel differs; returned for further checks.
recon::ProgressiveDecoder expect_exact_at_seed_workload(uint64_t seed, const std::function<void(recon::DecoderOptions&)>& enable) {
  at::manual_seed(seed);
  recon::ProgressiveDecoder d(recon::DecoderOptions(512, 128));
  const auto weights = at::rand({1, 1, 512, 512});
  expect_same_function(d, [&] { enable(d->options); }, [&](const at::Tensor& y) { return (y * weights).pow(2).sum(); });
  return d;
}

// Every doubling of the seed workload's decoder (256→128 at 4² up to 16→8 at 64²: the columns on BLAS and the phases
// in the core's own loops).
TEST(decoder, blas_upsampling_equals_transposed_convolution) {
  expect_exact_at_seed_workload(7, [](recon::DecoderOptions& o) { o.kernels().blas_upsampling = true; });
}

// The phase layers' own kernels at channel counts that leave every block size's remainder (input channels in blocks of
// four or eight, or of two for the weight gradient's lane sums; output channels in blocks of four, in vector pairs of
// sixteen, in single vectors of eight, or none of these) and at sizes whose rows and spans end in a partial block or
// hold several, against LibTorch's transposed convolution in float64: output and both gradients. The decoder reaches
// only powers of two.
TEST(decoder, phase_upsampling_kernels_equal_float64_transposed_convolution_at_every_shape) {
  at::manual_seed(13);
  const std::vector<std::pair<int64_t, int64_t>> sizes = {{9, 9}, {8, 12}, {16, 16}, {5, 17}, {11, 18}, {3, 35}};
  for (const auto& [h, w] : sizes) {
    for (const int64_t cin : {1, 2, 3, 4, 5, 6, 7, 9}) {
      for (const int64_t cout : {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32}) {
        SCOPED_TRACE("C_in " + std::to_string(cin) + ", C_out " + std::to_string(cout) + ", " + std::to_string(h) + " × " +
                     std::to_string(w));
        const auto x = at::randn({1, cin, h, w}).requires_grad_(true);
        const auto weight = at::randn({cin, cout, 4, 4}).requires_grad_(true);
        const auto y = recon::detail::upsample_k4_s2(x, weight);
        const auto weights = at::rand(y.sizes());
        (y * weights).sum().backward();
        const auto xd = x.detach().to(at::kDouble).requires_grad_(true);
        const auto wd = weight.detach().to(at::kDouble).requires_grad_(true);
        const auto yd = at::conv_transpose2d(xd, wd, {}, 2, 1);
        (yd * weights.to(at::kDouble)).sum().backward();
        EXPECT_LT(recon::testing::max_relative_difference(y, yd), 1e-5);
        EXPECT_LT(recon::testing::max_relative_difference(x.grad(), xd.grad()), 1e-5);
        EXPECT_LT(recon::testing::max_relative_difference(weight.grad(), wd.grad()), 1e-5);
      }
    }
  }
}

// Every BatchNorm + ReLU pair of the seed workload's decoder (4² to 128², 256 to 2 channels); the running
// statistics are updated as BatchNorm2d's forward updates them.
TEST(decoder, fused_batchnorm_relu_equals_library_pair) {
  auto d = expect_exact_at_seed_workload(9, [](recon::DecoderOptions& o) { o.kernels().fused_batchnorm_relu = true; });
  // Both forwards above updated the buffers; a decoder that only ever ran the library pair twice must agree.
  at::manual_seed(9);
  recon::ProgressiveDecoder plain(recon::DecoderOptions(512, 128));
  plain->forward();
  plain->forward();
  const auto fused_buffers = d->named_buffers(), plain_buffers = plain->named_buffers();
  for (const auto& item : plain_buffers) {
    const auto& other = fused_buffers[item.key()];
    if (item.value().is_floating_point()) {
      EXPECT_LT(recon::testing::max_relative_difference(other, item.value()), kMatvecTolerance) << item.key();
    } else {
      EXPECT_TRUE(at::equal(other, item.value())) << item.key();
    }
  }
}

// The direct kernel covers the 8→4, 4→2 (padded) and 2→1 (unpadded, with bias) layers at 128², as in the seed
// workload.
TEST(decoder, small_channel_conv_equals_library_convolution) {
  expect_exact_at_seed_workload(8, [](recon::DecoderOptions& o) { o.kernels().small_channel_conv = true; });
}

// The direct kernel at the other widths a decoder gives it (the side of the padded layers, and the side − 2 of the
// unpadded last one): 4, 2, 8 and 6 (shorter than a block of sixteen columns: the per-channel chunks only), 16 (one
// block), 14 (a tail only), 32 and 30 (blocks; blocks and a fourteen-column tail). Grids chosen so that 8 → 4, 4 → 2
// and 2 → 1 layers all occur, the 8 → 4 one also at 8 × 8 (N = 32, S = 8: its second block of input channels in the
// chunks).
TEST(decoder, small_channel_conv_equals_library_convolution_at_every_width) {
  for (const auto& [n, s] : std::vector<std::pair<int64_t, int64_t>>{{8, 4}, {16, 8}, {32, 8}, {64, 16}, {128, 32}}) {
    SCOPED_TRACE("N = " + std::to_string(n) + ", S = " + std::to_string(s));
    at::manual_seed(n + s);
    recon::ProgressiveDecoder d(recon::DecoderOptions(n, s));
    const auto weights = at::rand({1, 1, n, n});
    expect_same_function(d, [&] { d->options.kernels().small_channel_conv = true; },
                         [&](const at::Tensor& y) { return (y * weights).pow(2).sum(); });
  }
}

// The direct kernel at every channel count it accepts (1 to 8 in and out: blocks of four and each remainder), at
// widths with no full block of sixteen columns, exactly one, and blocks with a tail, at heights that leave the weight
// gradient's row walk one to five output rows, padded and unpadded, against LibTorch's convolution in float64:
// output and the three gradients. The decoder's own shapes reach only some of these (C_in 8, 4, 2 at power-of-two
// sizes); a block, tail or edge path that is wrong for the others passes the tests above.
TEST(decoder, small_channel_conv_kernel_equals_float64_convolution_at_every_shape) {
  at::manual_seed(11);
  for (const int64_t padding : {0, 1}) {
    for (const int64_t width : {3, 5, 16, 18, 33}) {
      for (int64_t cin = 1; cin <= 8; ++cin) {
        for (int64_t cout = 1; cout <= 8; ++cout) {
          const int64_t height = 1 + (cin + cout + width) % 5 + 2 * (1 - padding);  // 1 to 5 output rows
          SCOPED_TRACE("C_in " + std::to_string(cin) + ", C_out " + std::to_string(cout) + ", width " +
                       std::to_string(width) + ", height " + std::to_string(height) + ", padding " + std::to_string(padding));
          const auto x = at::randn({1, cin, height, width}).requires_grad_(true);
          const auto w = at::randn({cout, cin, 3, 3}).requires_grad_(true);
          const auto b = at::randn({cout}).requires_grad_(true);
          const auto y = recon::detail::small_conv3x3(x, w, b, padding);
          const auto weights = at::rand(y.sizes());
          (y * weights).sum().backward();
          const auto xd = x.detach().to(at::kDouble).requires_grad_(true);
          const auto wd = w.detach().to(at::kDouble).requires_grad_(true);
          const auto bd = b.detach().to(at::kDouble).requires_grad_(true);
          const auto yd = at::conv2d(xd, wd, bd, {1, 1}, {padding, padding});
          (yd * weights.to(at::kDouble)).sum().backward();
          EXPECT_LT(recon::testing::max_relative_difference(y, yd), 1e-5);
          EXPECT_LT(recon::testing::max_relative_difference(x.grad(), xd.grad()), 1e-5);
          EXPECT_LT(recon::testing::max_relative_difference(w.grad(), wd.grad()), 1e-5);
          EXPECT_LT(recon::testing::max_relative_difference(b.grad(), bd.grad()), 1e-5);
        }
      }
    }
  }
}

// The channel blocks (sixteen columns) and the per-channel chunks (a row's last columns) compute each element as the
// same sequence of float operations, so a column's result cannot depend on which of them computed it: an unpadded
// convolution of 18 columns (one block of output, and of input gradient) against the same input's first 15 (13 output
// and 15 input-gradient columns, all in chunks), compared bit for bit where both are defined by the same values.
TEST(decoder, small_channel_conv_blocks_and_chunks_compute_the_same_bits) {
  at::manual_seed(12);
  for (int64_t cin = 1; cin <= 8; ++cin) {
    for (int64_t cout = 1; cout <= 8; ++cout) {
      SCOPED_TRACE("C_in " + std::to_string(cin) + ", C_out " + std::to_string(cout));
      const auto x = at::randn({1, cin, 6, 18});
      const auto w = at::randn({cout, cin, 3, 3}).requires_grad_(true);
      const auto b = at::randn({cout}).requires_grad_(true);
      const auto gy = at::randn({1, cout, 4, 16});
      const auto wide_x = x.clone().requires_grad_(true);
      const auto wide = recon::detail::small_conv3x3(wide_x, w, b, 0);
      wide.backward(gy);
      const auto narrow_x = x.narrow(3, 0, 15).contiguous().requires_grad_(true);
      const auto narrow = recon::detail::small_conv3x3(narrow_x, w, b, 0);
      narrow.backward(gy.narrow(3, 0, 13).contiguous());
      EXPECT_TRUE(at::equal(wide.narrow(3, 0, 13), narrow)) << "output";
      // Input column c gathers output columns c − 2 … c: the first 13 see the same gradient in both.
      EXPECT_TRUE(at::equal(wide_x.grad().narrow(3, 0, 13), narrow_x.grad().narrow(3, 0, 13))) << "input gradient";
    }
  }
}

TEST(decoder, non_negative_activations_give_non_negative_output) {
  for (auto a : {recon::OutputActivation::relu, recon::OutputActivation::sigmoid, recon::OutputActivation::softplus,
                 recon::OutputActivation::abs}) {
    at::manual_seed(0);
    recon::ProgressiveDecoder d(recon::DecoderOptions(64, 16).output_activation(a));
    torch::NoGradGuard no_grad;
    EXPECT_GE(d->forward().min().item<float>(), 0.0f) << recon::to_string(a);
  }
}

// Each activation is the function its name says, checked on negative and positive values against its closed form
// (a range check alone lets a softplus with swapped beta and threshold, a ReLU with a soft knee, through).
TEST(decoder, every_output_activation_is_its_closed_form) {
  const auto x = at::tensor({-3.0, -1.0, -0.25, 0.0, 0.5, 2.0}, at::kDouble);
  for (const auto& [a, name] : recon::Choices<recon::OutputActivation>::table) {
    const auto y = recon::output_activation(x, a);
    for (int64_t i = 0; i < x.size(0); ++i) {
      const double v = x[i].item<double>();
      double expected = v;
      switch (a) {
        case recon::OutputActivation::none: expected = v; break;
        case recon::OutputActivation::relu: expected = std::max(v, 0.0); break;
        case recon::OutputActivation::sigmoid: expected = 1.0 / (1.0 + std::exp(-v)); break;
        case recon::OutputActivation::softplus: expected = std::log1p(std::exp(v)); break;
        case recon::OutputActivation::abs: expected = std::abs(v); break;
      }
      EXPECT_NEAR(y[i].item<double>(), expected, 1e-12) << name << " at " << v;
    }
  }
}

TEST(decoder, rejects_invalid_sizes) {
  EXPECT_THROW(recon::ProgressiveDecoder(recon::DecoderOptions(100, 32)), std::invalid_argument);
  EXPECT_THROW(recon::ProgressiveDecoder(recon::DecoderOptions(64, 65)), std::invalid_argument);
}

}  // namespace
