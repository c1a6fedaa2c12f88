#include "strided_upsample.h"

#include "cpu_dispatch.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <cblas.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>

namespace recon::detail {
namespace {

// Row-major C += op(A) · op(B) (BLAS takes int dimensions; these are far below 2³¹). Every product accumulates into
// a buffer allocated with at::zeros rather than asking BLAS for beta = 0, which gives the same bits (BLAS then adds
// its sum to a zeroed C too) without OpenBLAS's own zeroing pass, which is slower than a memset (measured in
// docs/results.md, "End to end").
void add_product(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                 int64_t ldb, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), 1.0f, c,
              static_cast<int>(ldc));
}

// ---- Phases --------------------------------------------------------------------------------------------------------

// Kernel taps of output phase a along one axis: {input shift, kernel index}. Output 2m + a reads input m + shift
// through kernel index k where 2(m + shift) − 1 + k = 2m + a.
constexpr int64_t kTaps[2][2][2] = {{{-1, 3}, {0, 1}}, {{0, 2}, {1, 0}}};

// The padded, flattened input: channel c's pixel (i, j) at c · channel() + slice(i, j), i.e. (i + 1) · row() + j + 1
// into the channel. A phase's product covers H rows of row() columns (the last two of each row are garbage); the
// input it reads for shift (dy, dx) starts at slice(dy, dx) and, with channel()'s two spare elements, never leaves
// its channel.
struct Geometry {
  int64_t cin, cout, h, w;
  int64_t row() const { return w + 2; }
  int64_t span() const { return h * row(); }
  int64_t channel() const { return (h + 2) * row() + 2; }
  int64_t slice(int64_t dy, int64_t dx) const { return (1 + dy) * row() + 1 + dx; }
  int64_t taps() const { return cin * cout; }  // one tap's packed [C_in, C_out] matrix
};

// Calls f(phase, shift_y, shift_x, tap) for the 16 (phase, tap) pairs; tap = ky · 4 + kx, phase = 2a + b.
template <typename F>
void for_each_tap(F&& f) {
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t ty = 0; ty < 2; ++ty)
        for (int64_t tx = 0; tx < 2; ++tx)
          f(2 * a + b, kTaps[a][ty][0], kTaps[b][tx][0], kTaps[a][ty][1] * 4 + kTaps[b][tx][1]);
}

at::Tensor pad_input(const at::Tensor& x, const Geometry& g) {
  auto padded = at::zeros({g.cin * g.channel()}, x.options());
  const float* src = x.data_ptr<float>();
  float* dst = padded.data_ptr<float>();
  for (int64_t c = 0; c < g.cin; ++c)
    for (int64_t i = 0; i < g.h; ++i)
      std::copy_n(src + (c * g.h + i) * g.w, g.w, dst + c * g.channel() + g.slice(i, 0));
  return padded;
}

// weight [C_in, C_out, 16 taps] → [16 taps][C_in][C_out] and back: a transpose of a [C_in · C_out, 16] matrix in
// blocks of kBlock rows, so that the 16 far-apart tap planes are each touched in runs of kBlock floats rather than one
// float at a time (LibTorch's permute().contiguous(), and an unblocked loop, copy these at ~1 ns per float: measured
// ~2 ms per decoder step for both directions).
constexpr int64_t kBlock = 64;
enum class Direction { pack, unpack };
void transpose_taps(const float* src, float* dst, int64_t rows, Direction direction) {
  for (int64_t k0 = 0; k0 < rows; k0 += kBlock) {
    const int64_t k1 = std::min(rows, k0 + kBlock);
    for (int64_t tap = 0; tap < 16; ++tap)
      for (int64_t k = k0; k < k1; ++k) {
        if (direction == Direction::pack) dst[tap * rows + k] = src[k * 16 + tap];
        else dst[k * 16 + tap] = src[tap * rows + k];
      }
  }
}
at::Tensor pack_weight(const at::Tensor& weight, const Geometry& g) {
  auto w = weight.contiguous();
  auto packed = at::empty({16, g.cin, g.cout}, w.options());
  transpose_taps(w.data_ptr<float>(), packed.data_ptr<float>(), g.taps(), Direction::pack);
  return packed;
}
at::Tensor unpack_weight(const at::Tensor& packed, const Geometry& g) {
  auto weight = at::empty({g.cin, g.cout, 4, 4}, packed.options());
  transpose_taps(packed.data_ptr<float>(), weight.data_ptr<float>(), g.taps(), Direction::unpack);
  return weight;
}

struct PhaseUpsample : torch::autograd::Function<PhaseUpsample> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, const at::Tensor& weight) {
    const Geometry g{x.size(1), weight.size(1), x.size(2), x.size(3)};
    auto padded = pad_input(x.detach().contiguous(), g);
    auto packed = pack_weight(weight.detach(), g);
    auto phases = at::zeros({4, g.cout, g.span()}, x.options());
    const float* xp = padded.data_ptr<float>();
    const float* wp = packed.data_ptr<float>();
    float* y = phases.data_ptr<float>();
    for_each_tap([&](int64_t phase, int64_t dy, int64_t dx, int64_t tap) {
      add_product(true, false, g.cout, g.span(), g.cin, wp + tap * g.taps(), g.cout, xp + g.slice(dy, dx), g.channel(),
                  y + phase * g.cout * g.span(), g.span());
    });
    // Interleave: out[c][2m + a][2n + b] = phase (a, b)[c][m · row() + n].
    auto out = at::empty({1, g.cout, 2 * g.h, 2 * g.w}, x.options());
    float* o = out.data_ptr<float>();
    for (int64_t c = 0; c < g.cout; ++c)
      for (int64_t m = 0; m < g.h; ++m)
        for (int64_t a = 0; a < 2; ++a) {
          float* dst = o + (c * 2 * g.h + 2 * m + a) * 2 * g.w;
          const float* even = y + ((2 * a) * g.cout + c) * g.span() + m * g.row();
          const float* odd = y + ((2 * a + 1) * g.cout + c) * g.span() + m * g.row();
          for (int64_t n = 0; n < g.w; ++n) {
            dst[2 * n] = even[n];
            dst[2 * n + 1] = odd[n];
          }
        }
    ctx->saved_data["padded"] = padded;
    ctx->saved_data["packed"] = packed;
    ctx->saved_data["geometry"] = std::vector<int64_t>{g.cin, g.cout, g.h, g.w};
    return out;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto dims = ctx->saved_data["geometry"].toIntVector();
    const Geometry g{dims[0], dims[1], dims[2], dims[3]};
    const auto padded = ctx->saved_data["padded"].toTensor();
    const auto packed = ctx->saved_data["packed"].toTensor();
    const auto grad_out = grads[0].contiguous();
    // De-interleave the output gradient into the four phases, zero in the garbage columns (so that they add
    // nothing to either gradient).
    auto phases = at::empty({4, g.cout, g.span()}, grad_out.options());
    const float* go = grad_out.data_ptr<float>();
    float* gy = phases.data_ptr<float>();
    for (int64_t c = 0; c < g.cout; ++c)
      for (int64_t m = 0; m < g.h; ++m)
        for (int64_t a = 0; a < 2; ++a) {
          const float* src = go + (c * 2 * g.h + 2 * m + a) * 2 * g.w;
          float* even = gy + ((2 * a) * g.cout + c) * g.span() + m * g.row();
          float* odd = gy + ((2 * a + 1) * g.cout + c) * g.span() + m * g.row();
          for (int64_t n = 0; n < g.w; ++n) {
            even[n] = src[2 * n];
            odd[n] = src[2 * n + 1];
          }
          even[g.w] = even[g.w + 1] = odd[g.w] = odd[g.w + 1] = 0.0f;
        }
    const float* xp = padded.data_ptr<float>();
    const float* wp = packed.data_ptr<float>();

    auto grad_packed = at::zeros_like(packed);
    float* gw = grad_packed.data_ptr<float>();
    for_each_tap([&](int64_t phase, int64_t dy, int64_t dx, int64_t tap) {
      add_product(false, true, g.cin, g.cout, g.span(), xp + g.slice(dy, dx), g.channel(), gy + phase * g.cout * g.span(),
                  g.span(), gw + tap * g.taps(), g.cout);
    });

    at::Tensor grad_x;
    if (ctx->needs_input_grad(0)) {
      auto grad_padded = at::zeros_like(padded);
      float* gxp = grad_padded.data_ptr<float>();
      for_each_tap([&](int64_t phase, int64_t dy, int64_t dx, int64_t tap) {
        add_product(false, false, g.cin, g.span(), g.cout, wp + tap * g.taps(), g.cout, gy + phase * g.cout * g.span(),
                    g.span(), gxp + g.slice(dy, dx), g.channel());
      });
      grad_x = at::empty({1, g.cin, g.h, g.w}, grad_out.options());
      float* gx = grad_x.data_ptr<float>();
      for (int64_t c = 0; c < g.cin; ++c)
        for (int64_t i = 0; i < g.h; ++i)
          std::copy_n(gxp + c * g.channel() + g.slice(i, 0), g.w, gx + (c * g.h + i) * g.w);
    }
    return {grad_x, unpack_weight(grad_packed, g)};
  }
};

// ---- Columns -------------------------------------------------------------------------------------------------------

// Output row oy = 2 · iy − 1 + ky and column ox = 2 · ix − 1 + kx of kernel tap (ky, kx) at input (iy, ix); the
// input columns whose output falls inside the image are [first_column(kx), end_column(kx, w)).
int64_t first_column(int64_t kx) { return kx == 0 ? 1 : 0; }
int64_t end_column(int64_t kx, int64_t w) { return kx == 3 ? w - 1 : w; }

// out[c][2iy − 1 + ky][2ix − 1 + kx] += columns[(c, ky, kx)][iy][ix] for every tap inside the output (col2im).
RECON_VECTOR_KERNEL void columns_to_image(const float* columns, float* out, int64_t cout, int64_t h, int64_t w) {
  std::fill_n(out, cout * 4 * h * w, 0.0f);
  for (int64_t c = 0; c < cout; ++c)
    for (int64_t ky = 0; ky < 4; ++ky)
      for (int64_t kx = 0; kx < 4; ++kx) {
        const float* plane = columns + ((c * 4 + ky) * 4 + kx) * h * w;
        for (int64_t iy = 0; iy < h; ++iy) {
          const int64_t oy = 2 * iy - 1 + ky;
          if (oy < 0 || oy >= 2 * h) continue;
          float* row = out + (c * 2 * h + oy) * 2 * w - 1 + kx;
          const float* src = plane + iy * w;
          for (int64_t ix = first_column(kx); ix < end_column(kx, w); ++ix) row[2 * ix] += src[ix];
        }
      }
}

// columns[(c, ky, kx)][iy][ix] = grad[c][2iy − 1 + ky][2ix − 1 + kx], zero where that falls outside (im2col).
RECON_VECTOR_KERNEL void image_to_columns(const float* grad, float* columns, int64_t cout, int64_t h, int64_t w) {
  for (int64_t c = 0; c < cout; ++c)
    for (int64_t ky = 0; ky < 4; ++ky)
      for (int64_t kx = 0; kx < 4; ++kx) {
        float* plane = columns + ((c * 4 + ky) * 4 + kx) * h * w;
        for (int64_t iy = 0; iy < h; ++iy) {
          const int64_t oy = 2 * iy - 1 + ky;
          float* dst = plane + iy * w;
          std::fill_n(dst, w, 0.0f);
          if (oy < 0 || oy >= 2 * h) continue;
          const float* row = grad + (c * 2 * h + oy) * 2 * w - 1 + kx;
          for (int64_t ix = first_column(kx); ix < end_column(kx, w); ++ix) dst[ix] = row[2 * ix];
        }
      }
}

struct ColumnUpsample : torch::autograd::Function<ColumnUpsample> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, const at::Tensor& weight) {
    const int64_t cin = x.size(1), cout = weight.size(1), h = x.size(2), w = x.size(3);
    auto xc = x.detach().contiguous(), wc = weight.detach().contiguous();
    auto columns = at::zeros({cout * 16, h * w}, xc.options());
    add_product(true, false, cout * 16, h * w, cin, wc.data_ptr<float>(), cout * 16, xc.data_ptr<float>(), h * w,
                columns.data_ptr<float>(), h * w);
    auto out = at::empty({1, cout, 2 * h, 2 * w}, xc.options());
    columns_to_image(columns.data_ptr<float>(), out.data_ptr<float>(), cout, h, w);
    ctx->saved_data["x"] = xc;
    ctx->saved_data["weight"] = wc;
    return out;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto x = ctx->saved_data["x"].toTensor(), weight = ctx->saved_data["weight"].toTensor();
    const int64_t cin = x.size(1), cout = weight.size(1), h = x.size(2), w = x.size(3);
    const auto grad_out = grads[0].contiguous();
    auto columns = at::empty({cout * 16, h * w}, grad_out.options());
    image_to_columns(grad_out.data_ptr<float>(), columns.data_ptr<float>(), cout, h, w);
    auto grad_weight = at::zeros_like(weight);
    add_product(false, true, cin, cout * 16, h * w, x.data_ptr<float>(), h * w, columns.data_ptr<float>(), h * w,
                grad_weight.data_ptr<float>(), cout * 16);
    at::Tensor grad_x;
    if (ctx->needs_input_grad(0)) {
      grad_x = at::zeros_like(x);
      add_product(false, false, cin, h * w, cout * 16, weight.data_ptr<float>(), cout * 16, columns.data_ptr<float>(), h * w,
                  grad_x.data_ptr<float>(), h * w);
    }
    return {grad_x, grad_weight};
  }
};

}  // namespace

at::Tensor upsample_k4_s2(const at::Tensor& x, const at::Tensor& weight) {
  TORCH_CHECK(x.dim() == 4 && x.size(0) == 1 && weight.dim() == 4 && weight.size(0) == x.size(1) && weight.size(2) == 4 &&
                  weight.size(3) == 4 && x.scalar_type() == at::kFloat && weight.scalar_type() == at::kFloat,
              "upsample_k4_s2: expects x [1, C_in, H, W] float32 and weight [C_in, C_out, 4, 4] float32");
  constexpr int64_t kColumnsUpToPixels = 8 * 8;  // the crossover measured between 8² and 16² (see the header)
  if (x.size(2) * x.size(3) <= kColumnsUpToPixels) return ColumnUpsample::apply(x, weight);
  return PhaseUpsample::apply(x, weight);
}

}  // namespace recon::detail
