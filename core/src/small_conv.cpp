#include "small_conv.h"

#include "cpu_dispatch.h"
#include "parallel_blocks.h"
#include "lane_sum.h"
#include "vector_blocks.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace recon::detail {
namespace {

// Shapes of one call: the input zero-padded by p on each side is [C_in][hp][wp]; the output [C_out][ho][wo] with
// ho = hp − 2, wo = wp − 2, and output (i, j) reads padded input (i + dy, j + dx) through tap (dy, dx).
struct Shape {
  int64_t cin, cout, hp, wp;
  int64_t ho() const { return hp - 2; }
  int64_t wo() const { return wp - 2; }
  int64_t weight(int64_t co, int64_t ci, int64_t dy, int64_t dx) const { return ((co * cin + ci) * 3 + dy) * 3 + dx; }
};

// Chunks: the fewer than kChunk columns a row leaves after its channel blocks (below), one channel at a time, summed
// in a local array: every tap adds k · (a shifted input chunk) to it, and the chunk is stored once. Each element is
// the same sequence of float operations as in a channel block. Always inlined, so that in a kernel's x86-64-v3 clone
// (cpu_dispatch.h) they contract to the same fused multiply-adds as the blocks beside them.
constexpr int64_t kChunk = 16;  // the channel blocks' width

// out[l] = bias + Σ_ci Σ_taps w · xp[ci][i + dy][l + dx] for l < len ≤ kChunk; xp points at the chunk's first column.
__attribute__((always_inline)) inline void forward_chunk(const float* xp, const float* w, float bias, float* out,
                                                         const Shape& s, int64_t co, int64_t i, int64_t len) {
  const int64_t n = std::min(len, kChunk);
  float acc[kChunk];
  for (int64_t l = 0; l < n; ++l) acc[l] = bias;
  for (int64_t ci = 0; ci < s.cin; ++ci)
    for (int64_t dy = 0; dy < 3; ++dy) {
      const float* row = xp + (ci * s.hp + i + dy) * s.wp;
      for (int64_t dx = 0; dx < 3; ++dx) {
        const float k = w[s.weight(co, ci, dy, dx)];
        for (int64_t l = 0; l < n; ++l) acc[l] += k * row[dx + l];
      }
    }
  for (int64_t l = 0; l < n; ++l) out[l] = acc[l];
}

// Channel blocks: two vectors of columns (sixteen in Vec8, thirty-two in Vec16: the kernels' two widths,
// cpu_dispatch.h) of up to kChannels channels (output channels in the forward, input channels in the input gradient),
// summed together in registers (kChannels × 2 accumulators), so that each shifted load feeds kChannels multiply-adds
// instead of one (one channel at a time loads once per multiply-add, which bounds it by the load ports: measured on
// the three layers at 128², forward and backward, 1.83 → 1.36 ms). Every element is the same sequence of float
// operations in every block and chunk: the same start, the same terms in the same order. A wide kernel's rows take
// blocks of thirty-two columns, then of sixteen, then chunks.
constexpr int64_t kChannels = 4;
template <typename V>
constexpr int64_t kBlockColumns = 2 * kLanesOf<V>;
static_assert(kBlockColumns<Vec8> == kChunk, "a narrow block is one chunk wide");

// Stores a block's C × kBlockColumns sums: channel c's columns at out + c · plane.
template <int64_t C, typename V>
__attribute__((always_inline)) inline void store_block(const V (&lo)[C], const V (&hi)[C], float* out, int64_t plane) {
  for (int64_t c = 0; c < C; ++c) {
    store(out + c * plane, lo[c]);
    store(out + c * plane + kLanesOf<V>, hi[c]);
  }
}

// out[c][l] = bias[c] + Σ_ci Σ_taps w(co0 + c) · xp[ci][i + dy][l + dx] for c < C, l < kBlockColumns.
template <int64_t C, typename V>
__attribute__((always_inline)) inline void forward_block(const float* xp, const float* w, const float* bias, float* y,
                                                         const Shape& s, int64_t co0, int64_t i, int64_t j0) {
  V lo[C], hi[C];
  for (int64_t c = 0; c < C; ++c) {
    splat(lo[c], bias ? bias[co0 + c] : 0.0f);
    hi[c] = lo[c];
  }
  for (int64_t ci = 0; ci < s.cin; ++ci)
    for (int64_t dy = 0; dy < 3; ++dy) {
      const float* row = xp + (ci * s.hp + i + dy) * s.wp + j0;
      for (int64_t dx = 0; dx < 3; ++dx) {
        V x0, x1;
        load(x0, row + dx);
        load(x1, row + dx + kLanesOf<V>);
        for (int64_t c = 0; c < C; ++c) {
          const float k = w[s.weight(co0 + c, ci, dy, dx)];
          lo[c] += k * x0;
          hi[c] += k * x1;
        }
      }
    }
  const int64_t ho = s.ho(), wo = s.wo();
  store_block<C, V>(lo, hi, y + (co0 * ho + i) * wo + j0, ho * wo);
}

// Output channels [co0, co0 + C): every row's full blocks, then its last columns one channel at a time.
template <typename V>
struct Forward {
  template <int64_t C>
  struct Channels {
    __attribute__((always_inline)) static void run(int64_t co0, const float* xp, const float* w, const float* b, float* y,
                                                   const Shape& s, int64_t i_begin, int64_t i_end) {
      const int64_t ho = s.ho(), wo = s.wo();
      for (int64_t i = i_begin; i < i_end; ++i) {
        int64_t j0 = 0;
        for (; j0 + kBlockColumns<V> <= wo; j0 += kBlockColumns<V>) forward_block<C, V>(xp, w, b, y, s, co0, i, j0);
        if constexpr (kBlockColumns<V> > kChunk)
          for (; j0 + kChunk <= wo; j0 += kChunk) forward_block<C, Vec8>(xp, w, b, y, s, co0, i, j0);
        if (j0 < wo)
          for (int64_t co = co0; co < co0 + C; ++co)
            forward_chunk(xp + j0, w, b ? b[co] : 0.0f, y + (co * ho + i) * wo + j0, s, co, i, wo - j0);
      }
    }
  };
};

// y[co] = b[co] + Σ_ci Σ_taps w · shifted xp[ci], in blocks of up to kChannels output channels, for the output rows
// [i_begin, i_end).
RECON_VECTOR_KERNEL void forward_kernel(const float* xp, const float* w, const float* b, float* y, const Shape& s, int64_t i_begin,
                                        int64_t i_end) {
  in_channel_blocks<kChannels, Forward<Vec8>::Channels>(s.cout, xp, w, b, y, s, i_begin, i_end);
}
RECON_WIDE_KERNEL void forward_wide_kernel(const float* xp, const float* w, const float* b, float* y, const Shape& s,
                                           int64_t i_begin, int64_t i_end) {
  in_channel_blocks<kChannels, Forward<Vec16>::Channels>(s.cout, xp, w, b, y, s, i_begin, i_end);
}

// out[l] = Σ_co Σ_taps w · gy[co][a + p − dy][c0 + l + p − dx] for l < len ≤ kChunk. gyp is gy with two zero columns
// on each side ([C_out][ho][wo + 4]) so that every shifted read is in bounds; rows outside gy are skipped.
__attribute__((always_inline)) inline void input_gradient_chunk(const float* w, const float* gyp, float* out,
                                                                const Shape& s, int64_t p, int64_t ci, int64_t a, int64_t c0,
                                                                int64_t len) {
  const int64_t n = std::min(len, kChunk), ho = s.ho(), row_length = s.wo() + 4;
  float acc[kChunk];
  for (int64_t l = 0; l < n; ++l) acc[l] = 0.0f;
  for (int64_t co = 0; co < s.cout; ++co)
    for (int64_t dy = 0; dy < 3; ++dy) {
      const int64_t i = a + p - dy;
      if (i < 0 || i >= ho) continue;
      const float* g = gyp + (co * ho + i) * row_length + 2 + c0 + p;
      for (int64_t dx = 0; dx < 3; ++dx) {
        const float k = w[s.weight(co, ci, dy, dx)];
        for (int64_t l = 0; l < n; ++l) acc[l] += k * g[l - dx];
      }
    }
  for (int64_t l = 0; l < n; ++l) out[l] = acc[l];
}

// out[c][l] = Σ_co Σ_taps w(co, ci0 + c) · gy[co][a + p − dy][c0 + l + p − dx] for c < C, l < kBlockColumns: the
// input gradient's channel block (see forward_block), each shifted load of gy feeding C multiply-adds.
template <int64_t C, typename V>
__attribute__((always_inline)) inline void input_gradient_block(const float* w, const float* gyp, float* gx,
                                                                const Shape& s, int64_t p, int64_t ci0, int64_t a,
                                                                int64_t c0) {
  const int64_t ho = s.ho(), row_length = s.wo() + 4;
  V lo[C], hi[C];
  for (int64_t c = 0; c < C; ++c) lo[c] = hi[c] = V{};
  for (int64_t co = 0; co < s.cout; ++co)
    for (int64_t dy = 0; dy < 3; ++dy) {
      const int64_t i = a + p - dy;
      if (i < 0 || i >= ho) continue;
      const float* g = gyp + (co * ho + i) * row_length + 2 + c0 + p;
      for (int64_t dx = 0; dx < 3; ++dx) {
        V g0, g1;
        load(g0, g - dx);
        load(g1, g - dx + kLanesOf<V>);
        for (int64_t c = 0; c < C; ++c) {
          const float k = w[s.weight(co, ci0 + c, dy, dx)];
          lo[c] += k * g0;
          hi[c] += k * g1;
        }
      }
    }
  const int64_t h = s.hp - 2 * p, width = s.wp - 2 * p;
  store_block<C, V>(lo, hi, gx + (ci0 * h + a) * width + c0, h * width);
}

// Input channels [ci0, ci0 + C): every row's full blocks, then its last columns one channel at a time.
template <typename V>
struct InputGradient {
  template <int64_t C>
  struct Channels {
    __attribute__((always_inline)) static void run(int64_t ci0, const float* w, const float* gyp, float* gx, const Shape& s,
                                                   int64_t p, int64_t a_begin, int64_t a_end) {
      const int64_t h = s.hp - 2 * p, width = s.wp - 2 * p;
      for (int64_t a = a_begin; a < a_end; ++a) {
        int64_t c0 = 0;
        for (; c0 + kBlockColumns<V> <= width; c0 += kBlockColumns<V>) input_gradient_block<C, V>(w, gyp, gx, s, p, ci0, a, c0);
        if constexpr (kBlockColumns<V> > kChunk)
          for (; c0 + kChunk <= width; c0 += kChunk) input_gradient_block<C, Vec8>(w, gyp, gx, s, p, ci0, a, c0);
        if (c0 < width)
          for (int64_t ci = ci0; ci < ci0 + C; ++ci)
            input_gradient_chunk(w, gyp, gx + (ci * h + a) * width + c0, s, p, ci, a, c0, width - c0);
      }
    }
  };
};

// gx[ci] = Σ_co Σ_taps w · (gy[co] shifted back), for the unpadded input [C_in][h][width], in blocks of up to
// kChannels input channels, for the input rows [a_begin, a_end).
RECON_VECTOR_KERNEL void input_gradient_kernel(const float* w, const float* gyp, float* gx, const Shape& s, int64_t p,
                                               int64_t a_begin, int64_t a_end) {
  in_channel_blocks<kChannels, InputGradient<Vec8>::Channels>(s.cin, w, gyp, gx, s, p, a_begin, a_end);
}
RECON_WIDE_KERNEL void input_gradient_wide_kernel(const float* w, const float* gyp, float* gx, const Shape& s, int64_t p,
                                                  int64_t a_begin, int64_t a_end) {
  in_channel_blocks<kChannels, InputGradient<Vec16>::Channels>(s.cin, w, gyp, gx, s, p, a_begin, a_end);
}

// columns[t · wo + j] = Σ_i g[i][j] · x[i + dy][j + dx] for tap t = 3 dy + dx and the columns of one vector V (eight
// or sixteen) from j0, summed over the rows i in order: the nine sums live in nine registers for the whole column block. The padded input's
// rows are walked once: row r's three shifted loads feed the taps of row dy through the output gradient's row r − dy,
// kept in one of three registers, so a row costs one load of g, three loads of x and nine multiply-adds (a load of x
// per tap, nine a row, bound the loop by the load ports: docs/results/2026-11-26-end-to-end-history.md, "The small
// convolutions' weight gradient, one load per input row"; summing a whole row into memory per tap costs two more loads
// and a store per multiply-add).
// As r rises so does each tap's i = r − dy: each column's sum is the same sequence of float operations either way.
template <bool Top, bool Middle, bool Bottom, typename V>
__attribute__((always_inline)) inline void weight_gradient_row(V (&a)[9], const V& g_top, const V& g_middle,
                                                                const V& g_bottom, const float* x_row) {
  V x0, x1, x2;
  load(x0, x_row);
  load(x1, x_row + 1);
  load(x2, x_row + 2);
  if (Top) {  // dy = 0: output row r
    a[0] += g_top * x0;
    a[1] += g_top * x1;
    a[2] += g_top * x2;
  }
  if (Middle) {  // dy = 1: output row r − 1
    a[3] += g_middle * x0;
    a[4] += g_middle * x1;
    a[5] += g_middle * x2;
  }
  if (Bottom) {  // dy = 2: output row r − 2
    a[6] += g_bottom * x0;
    a[7] += g_bottom * x1;
    a[8] += g_bottom * x2;
  }
}

template <typename V>
__attribute__((always_inline)) inline void weight_gradient_block(const float* g_plane, const float* x_plane,
                                                                  float* columns, int64_t ho, int64_t wo, int64_t wp,
                                                                  int64_t j0) {
  V a[9] = {};
  const float* g = g_plane + j0;
  const float* x = x_plane + j0;
  V g0 = {}, g1 = {}, g2 = {};  // output gradient rows r, r − 1, r − 2
  if (ho < 2) {  // the walk below needs two output rows; with one, each tap row sees it once
    if (ho == 1) {
      load(g0, g);
      weight_gradient_row<true, false, false>(a, g0, g0, g0, x);
      weight_gradient_row<false, true, false>(a, g0, g0, g0, x + wp);
      weight_gradient_row<false, false, true>(a, g0, g0, g0, x + 2 * wp);
    }
  } else {
    load(g0, g);
    weight_gradient_row<true, false, false>(a, g0, g1, g2, x);
    g1 = g0;
    load(g0, g + wo);
    weight_gradient_row<true, true, false>(a, g0, g1, g2, x + wp);
    for (int64_t r = 2; r < ho; ++r) {
      g2 = g1;
      g1 = g0;
      load(g0, g + r * wo);
      weight_gradient_row<true, true, true>(a, g0, g1, g2, x + r * wp);
    }
    g2 = g1;
    g1 = g0;
    weight_gradient_row<false, true, true>(a, g0, g1, g2, x + ho * wp);
    g2 = g1;
    weight_gradient_row<false, false, true>(a, g0, g1, g2, x + (ho + 1) * wp);
  }
  for (int64_t t = 0; t < 9; ++t) store(columns + t * wo + j0, a[t]);
}

// gw[co][ci][tap] = Σ gy[co] · shifted xp[ci]: per column in `columns` (9 rows of wo; blocks of one vector V of
// columns in registers, a wide kernel's remainder in blocks of eight, the last wo mod 8 one at a time), then the
// columns summed in double; gb[co] = Σ gy[co] (with the pair (co, 0)). For the pairs q = co · C_in + ci in
// [q_begin, q_end), each its own outputs.
template <typename V>
__attribute__((always_inline)) inline void weight_gradient(const float* xp, const float* gy, float* gw, float* gb,
                                                           float* columns, const Shape& s, int64_t q_begin, int64_t q_end) {
  const int64_t ho = s.ho(), wo = s.wo();
  auto total = [wo](const float* sums) { return static_cast<float>(lane_sum(wo, [sums](int64_t j) { return sums[j]; })); };
  for (int64_t q = q_begin; q < q_end; ++q) {
    const int64_t co = q / s.cin, ci = q % s.cin;
    const float* g_plane = gy + co * ho * wo;
    if (gb && ci == 0) {
      std::fill_n(columns, wo, 0.0f);
      for (int64_t i = 0; i < ho; ++i)
        for (int64_t j = 0; j < wo; ++j) columns[j] += g_plane[i * wo + j];
      gb[co] = total(columns);
    }
    {
      const float* x_plane = xp + ci * s.hp * s.wp;
      int64_t j0 = 0;
      for (; j0 + kLanesOf<V> <= wo; j0 += kLanesOf<V>) weight_gradient_block<V>(g_plane, x_plane, columns, ho, wo, s.wp, j0);
      if constexpr (kLanesOf<V> > 8)
        for (; j0 + 8 <= wo; j0 += 8) weight_gradient_block<Vec8>(g_plane, x_plane, columns, ho, wo, s.wp, j0);
      for (; j0 < wo; ++j0)
        for (int64_t t = 0; t < 9; ++t) {
          const int64_t dy = t / 3, dx = t % 3;
          float sum = 0.0f;
          for (int64_t i = 0; i < ho; ++i) sum += g_plane[i * wo + j0] * x_plane[(i + dy) * s.wp + j0 + dx];
          columns[t * wo + j0] = sum;
        }
      for (int64_t dy = 0; dy < 3; ++dy)
        for (int64_t dx = 0; dx < 3; ++dx) gw[s.weight(co, ci, dy, dx)] = total(columns + (dy * 3 + dx) * wo);
    }
  }
}
RECON_VECTOR_KERNEL void weight_gradient_kernel(const float* xp, const float* gy, float* gw, float* gb, float* columns,
                                                const Shape& s, int64_t q_begin, int64_t q_end) {
  weight_gradient<Vec8>(xp, gy, gw, gb, columns, s, q_begin, q_end);
}
RECON_WIDE_KERNEL void weight_gradient_wide_kernel(const float* xp, const float* gy, float* gw, float* gb, float* columns,
                                                   const Shape& s, int64_t q_begin, int64_t q_end) {
  weight_gradient<Vec16>(xp, gy, gw, gb, columns, s, q_begin, q_end);
}

// x [1, C, H, W] with py zero rows above and below and px zero columns left and right: [1, C, H + 2py, W + 2px], in
// one pass that writes each element once (at::constant_pad_nd fills the whole result, then copies x into it).
at::Tensor zero_padded(const at::Tensor& x, int64_t py, int64_t px) {
  TORCH_CHECK(py >= 0 && px >= 0, "zero_padded: padding must not be negative");
  const auto xc = x.contiguous();
  const int64_t c = xc.size(1), h = xc.size(2), w = xc.size(3), hp = h + 2 * py, wp = w + 2 * px;
  auto out = at::empty({1, c, hp, wp}, xc.options());
  const float* src = xc.data_ptr<float>();
  float* dst = out.data_ptr<float>();
  for (int64_t ch = 0; ch < c; ++ch) {
    float* plane = dst + ch * hp * wp;
    std::fill_n(plane, py * wp, 0.0f);
    for (int64_t i = 0; i < h; ++i) {
      float* row = plane + (py + i) * wp;
      std::fill_n(row, px, 0.0f);
      std::copy_n(src + (ch * h + i) * w, w, row + px);
      std::fill_n(row + px + w, px, 0.0f);
    }
    std::fill_n(plane + (py + h) * wp, py * wp, 0.0f);
  }
  return out;
}

struct SmallConv : torch::autograd::Function<SmallConv> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, const at::Tensor& weight,
                            const at::Tensor& bias, int64_t padding) {
    TORCH_CHECK(x.dim() == 4 && x.size(0) == 1 && weight.dim() == 4 && weight.size(2) == 3 && weight.size(3) == 3 &&
                    weight.size(1) == x.size(1) && x.scalar_type() == at::kFloat,
                "small_conv3x3: expects x [1, C_in, H, W] float32 and weight [C_out, C_in, 3, 3]");
    auto xp = padding == 0 ? x.detach().contiguous() : zero_padded(x.detach(), padding, padding);
    auto wc = weight.detach().contiguous();
    const Shape s{x.size(1), weight.size(0), xp.size(2), xp.size(3)};
    auto y = at::empty({1, s.cout, s.ho(), s.wo()}, x.options());
    const at::Tensor bc = bias.detach().contiguous();
    // Output rows, each its own output.
    const auto kernel = wide_kernels() ? forward_wide_kernel : forward_kernel;
    const float *x_data = xp.data_ptr<float>(), *w_data = wc.data_ptr<float>(), *b_data = bc.data_ptr<float>();
    float* y_data = y.data_ptr<float>();
    for_blocks(s.ho(), grain_for(9 * s.cin * s.cout * s.wo()), [&](int64_t i0, int64_t i1) { kernel(x_data, w_data, b_data, y_data, s, i0, i1); });
    ctx->saved_data["padded"] = xp;
    ctx->saved_data["weight"] = wc;
    ctx->saved_data["padding"] = padding;
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto xp = ctx->saved_data["padded"].toTensor(), w = ctx->saved_data["weight"].toTensor();
    const int64_t padding = ctx->saved_data["padding"].toInt();
    const Shape s{xp.size(1), w.size(0), xp.size(2), xp.size(3)};
    auto gy = grads[0].contiguous();
    at::Tensor gx;
    if (ctx->needs_input_grad(0)) {
      gx = at::empty({1, s.cin, s.hp - 2 * padding, s.wp - 2 * padding}, xp.options());
      const auto gyp = zero_padded(gy, 0, 2);
      // Input rows, each its own output.
      const auto kernel = wide_kernels() ? input_gradient_wide_kernel : input_gradient_kernel;
      const float *w_data = w.data_ptr<float>(), *gyp_data = gyp.data_ptr<float>();
      float* gx_data = gx.data_ptr<float>();
      for_blocks(gx.size(2), grain_for(9 * s.cin * s.cout * gx.size(3)),
                 [&](int64_t a0, int64_t a1) { kernel(w_data, gyp_data, gx_data, s, padding, a0, a1); });
    }
    const bool has_bias = ctx->needs_input_grad(2);
    auto gw = at::empty_like(w);  // the decoder's weights always need theirs
    auto gb = has_bias ? at::empty({s.cout}, w.options()) : at::Tensor();
    // The (output, input) channel pairs, each its own weights (and, with its first input channel, its bias); each
    // thread sums its columns in its own slice of `columns`.
    const int64_t slice = 9 * s.wo();
    std::vector<float> columns(static_cast<size_t>(slice * at::get_num_threads()));
    const auto kernel = wide_kernels() ? weight_gradient_wide_kernel : weight_gradient_kernel;
    const float *x_data = xp.data_ptr<float>(), *gy_data = gy.data_ptr<float>();
    float *gw_data = gw.data_ptr<float>(), *gb_data = has_bias ? gb.data_ptr<float>() : nullptr;
    for_blocks(s.cout * s.cin, grain_for(9 * s.ho() * s.wo()), [&](int64_t q0, int64_t q1) {
      kernel(x_data, gy_data, gw_data, gb_data, columns.data() + slice * at::get_thread_num(), s, q0, q1);
    });
    return {gx, gw, gb, torch::autograd::Variable()};
  }
};

}  // namespace

at::Tensor small_conv3x3(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t padding) {
  // Autograd functions take defined tensors only: no bias is a zero bias that needs no gradient.
  return SmallConv::apply(x, weight, bias.defined() ? bias : at::zeros({weight.size(0)}, weight.options()), padding);
}

}  // namespace recon::detail
