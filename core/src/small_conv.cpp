#include "small_conv.h"

#include "cpu_dispatch.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <vector>

namespace recon::detail {
namespace {

// Geometry of one 3×3 tap: output (i, j) reads input (i + dy − p, j + dx − p). For a tap, the valid output
// columns are [j0, j1) and rows [i0, i1).
struct Tap {
  int64_t i0, i1, j0, j1, di, dj;
};

Tap tap(int64_t dy, int64_t dx, int64_t p, int64_t h_in, int64_t w_in, int64_t h_out, int64_t w_out) {
  Tap t;
  t.di = dy - p;
  t.dj = dx - p;
  t.i0 = std::max<int64_t>(0, -t.di);
  t.i1 = std::min<int64_t>(h_out, h_in - t.di);
  t.j0 = std::max<int64_t>(0, -t.dj);
  t.j1 = std::min<int64_t>(w_out, w_in - t.dj);
  return t;
}

// y[co] = b[co] + Σ_ci Σ_taps w · shifted x[ci].
RECON_VECTOR_KERNEL void forward_kernel(const float* x, const float* w, const float* b, float* y, int64_t cin, int64_t cout, int64_t h_in,
                    int64_t w_in, int64_t h_out, int64_t w_out, int64_t p) {
  for (int64_t co = 0; co < cout; ++co) {
    float* out = y + co * h_out * w_out;
    std::fill_n(out, h_out * w_out, b ? b[co] : 0.0f);
    for (int64_t ci = 0; ci < cin; ++ci) {
      const float* in = x + ci * h_in * w_in;
      for (int64_t dy = 0; dy < 3; ++dy)
        for (int64_t dx = 0; dx < 3; ++dx) {
          const float k = w[((co * cin + ci) * 3 + dy) * 3 + dx];
          const Tap t = tap(dy, dx, p, h_in, w_in, h_out, w_out);
          for (int64_t i = t.i0; i < t.i1; ++i) {
            float* o = out + i * w_out;
            const float* s = in + (i + t.di) * w_in + t.dj;
            for (int64_t j = t.j0; j < t.j1; ++j) o[j] += k * s[j];
          }
        }
    }
  }
}

// gx[ci] = Σ_co Σ_taps w · (gy[co] shifted back); gw[co][ci][tap] = Σ gy[co] · shifted x[ci]; gb[co] = Σ gy[co].
RECON_VECTOR_KERNEL void backward_kernel(const float* x, const float* w, const float* gy, float* gx, float* gw, float* gb, int64_t cin,
                     int64_t cout, int64_t h_in, int64_t w_in, int64_t h_out, int64_t w_out, int64_t p) {
  if (gx) std::fill_n(gx, cin * h_in * w_in, 0.0f);
  std::vector<float> column_sums(static_cast<size_t>(w_out));
  for (int64_t co = 0; co < cout; ++co) {
    const float* g = gy + co * h_out * w_out;
    if (gb) {
      std::fill(column_sums.begin(), column_sums.end(), 0.0f);
      for (int64_t i = 0; i < h_out; ++i)
        for (int64_t j = 0; j < w_out; ++j) column_sums[static_cast<size_t>(j)] += g[i * w_out + j];
      double total = 0.0;
      for (float v : column_sums) total += v;
      gb[co] = static_cast<float>(total);
    }
    for (int64_t ci = 0; ci < cin; ++ci) {
      const float* in = x + ci * h_in * w_in;
      float* gin = gx ? gx + ci * h_in * w_in : nullptr;
      for (int64_t dy = 0; dy < 3; ++dy)
        for (int64_t dx = 0; dx < 3; ++dx) {
          const int64_t widx = ((co * cin + ci) * 3 + dy) * 3 + dx;
          const float k = w[widx];
          const Tap t = tap(dy, dx, p, h_in, w_in, h_out, w_out);
          std::fill(column_sums.begin(), column_sums.end(), 0.0f);
          float* acc = column_sums.data();
          for (int64_t i = t.i0; i < t.i1; ++i) {
            const float* gr = g + i * w_out;
            const float* s = in + (i + t.di) * w_in + t.dj;
            for (int64_t j = t.j0; j < t.j1; ++j) acc[j] += gr[j] * s[j];
            if (gin) {
              float* d = gin + (i + t.di) * w_in + t.dj;
              for (int64_t j = t.j0; j < t.j1; ++j) d[j] += k * gr[j];
            }
          }
          double total = 0.0;
          for (int64_t j = t.j0; j < t.j1; ++j) total += acc[j];
          gw[widx] = static_cast<float>(total);
        }
    }
  }
}

struct SmallConv : torch::autograd::Function<SmallConv> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, const at::Tensor& weight,
                            const at::Tensor& bias, int64_t padding) {
    TORCH_CHECK(x.dim() == 4 && x.size(0) == 1 && weight.dim() == 4 && weight.size(2) == 3 && weight.size(3) == 3 &&
                    weight.size(1) == x.size(1) && x.scalar_type() == at::kFloat,
                "small_conv3x3: expects x [1, C_in, H, W] float32 and weight [C_out, C_in, 3, 3]");
    auto xc = x.detach().contiguous(), wc = weight.detach().contiguous();
    const int64_t cin = x.size(1), cout = weight.size(0), h = x.size(2), w = x.size(3);
    const int64_t ho = h + 2 * padding - 2, wo = w + 2 * padding - 2;
    auto y = at::empty({1, cout, ho, wo}, x.options());
    const at::Tensor bc = bias.detach().contiguous();
    forward_kernel(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
                   y.data_ptr<float>(), cin, cout, h, w, ho, wo, padding);
    ctx->save_for_backward({xc, wc});
    ctx->saved_data["padding"] = padding;

    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& x = saved[0];
    const auto& w = saved[1];
    const int64_t padding = ctx->saved_data["padding"].toInt();
    const bool has_bias = ctx->needs_input_grad(2);
    auto gy = grads[0].contiguous();
    const int64_t cin = x.size(1), cout = w.size(0);
    const bool want_input = ctx->needs_input_grad(0);
    auto gx = want_input ? at::empty_like(x) : at::Tensor();
    auto gw = at::empty_like(w);  // the decoder's weights always need theirs
    auto gb = has_bias ? at::empty({cout}, w.options()) : at::Tensor();
    backward_kernel(x.data_ptr<float>(), w.data_ptr<float>(), gy.data_ptr<float>(), want_input ? gx.data_ptr<float>() : nullptr,
                    gw.data_ptr<float>(), has_bias ? gb.data_ptr<float>() : nullptr, cin, cout, x.size(2), x.size(3),
                    gy.size(2), gy.size(3), padding);
    return {gx, gw, gb, torch::autograd::Variable()};
  }
};

}  // namespace

at::Tensor small_conv3x3(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t padding) {
  // Autograd functions take defined tensors only: no bias is a zero bias that needs no gradient.
  return SmallConv::apply(x, weight, bias.defined() ? bias : at::zeros({weight.size(0)}, weight.options()), padding);
}

}  // namespace recon::detail
