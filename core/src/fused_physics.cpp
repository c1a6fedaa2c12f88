#include "fused_physics.h"

#include "autograd_keep_alive.h"
#include "cpu_dispatch.h"
#include "fftw_rows.h"
#include "lane_sum.h"
#include "parallel_blocks.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace recon::detail {

namespace {

// Σ |(|y_i| − t_i)| over `count` complex y (interleaved re, im), and y_i ← sign(|y_i| − t_i) · scale · y_i/|y_i|.
// Squares are summed in double so that the modulus is correctly rounded, as torch's hypot-based abs is; plain sqrt
// (no overflow guard: these amplitudes cannot reach it). Written for the vectoriser (this file is built with
// -fno-trapping-math, without which GCC will not if-convert the selects): blocks whose element-wise loop has no
// reduction and no branch (the division is unconditional, its inf/NaN at y = 0 discarded by the select), then the
// block's |residuals| summed by lane_sum. As one sequential sum with a guarded division the loop ran scalar: ~2.5 ms
// per step at N = 512.
constexpr int64_t kResidualBlock = 64;

// The work one thread is started for, in grid elements: at N = 512, eight rows' transforms (tens of microseconds),
// well above a parallel region's cost; at N = 64 a whole grid, so small problems run on one thread.
constexpr int64_t kElementsPerTask = 4096;

// Blocks [block_begin, block_end) of kResidualBlock elements of the `count` (the last block may be short): block b's
// Σ |residual| into block_sums[b]. The caller adds the blocks' sums in block order, so any split of the blocks gives
// the same bits.
RECON_VECTOR_KERNEL void l1_residual_kernel(float* parts, const float* t, int64_t count, int64_t block_begin, int64_t block_end,
                                            float scale, double* block_sums) {
  constexpr int64_t kBlock = kResidualBlock;
  float magnitude[kBlock];
  auto residual_block = [&](int64_t first, int64_t length) {
    float* y = parts + 2 * first;
    const float* target = t + first;
    for (int64_t k = 0; k < length; ++k) {
      const float re = y[2 * k], im = y[2 * k + 1];
      const float a = static_cast<float>(std::sqrt(static_cast<double>(re) * re + static_cast<double>(im) * im));
      const float r = a - target[k];
      magnitude[k] = std::fabs(r);
      const float sign = static_cast<float>(r > 0.0f) - static_cast<float>(r < 0.0f);
      const float quotient = (sign * scale) / a;
      const float w = a > 0.0f ? quotient : 0.0f;
      y[2 * k] = re * w;
      y[2 * k + 1] = im * w;
    }
  };
  for (int64_t b = block_begin; b < block_end; ++b) {
    const int64_t i = b * kBlock, length = std::min(kBlock, count - i);
    residual_block(i, length);
    block_sums[b] = lane_sum(length, [&magnitude](int64_t k) { return magnitude[k]; });
  }
}

}  // namespace

// Layout: the spectrum is held transposed, v[j][k] = U[k][j] (row j = spectrum column j), because the pruned
// real-input forward transform produces columns; images are held in their natural [a][b] layout. FFTW transforms
// are unnormalised: both ortho factors 1/N of a row's forward-then-inverse pair are folded into its pupil (1/N²).
class FusedL1Physics {
 public:
  explicit FusedL1Physics(const FusedPhysicsSetup& s)
      : n_(s.grid), first_(s.first), fft_(RowTransforms::of_length(s.grid)),
        old_normaliser_(s.old_normaliser), new_normaliser_(s.new_normaliser) {
    const size_t plane = static_cast<size_t>(n_ * n_);
    const float fold = 1.0f / static_cast<float>(n_ * n_);
    new_target_ = s.new_target.contiguous();
    h_ = s.patch_mask.size(0);
    w_ = s.patch_mask.size(1);
    patch_rows_.assign(s.patch_rows.data_ptr<int64_t>(), s.patch_rows.data_ptr<int64_t>() + h_);
    patch_cols_.assign(s.patch_cols.data_ptr<int64_t>(), s.patch_cols.data_ptr<int64_t>() + w_);
    patch_pupil_t_ = AlignedBuffer<float>(static_cast<size_t>(w_ * h_));
    auto pm = s.patch_mask.contiguous();
    for (int64_t kk = 0; kk < h_; ++kk)
      for (int64_t jj = 0; jj < w_; ++jj) patch_pupil_t_.data()[jj * h_ + kk] = pm.data_ptr<float>()[kk * w_ + jj] * fold;

    std::vector<char> needed(static_cast<size_t>(n_), 0);
    if (!first_) {
      old_target_ = s.old_target.contiguous();
      old_pupil_t_ = AlignedBuffer<float>(plane);
      auto om = s.old_mask.contiguous();
      const float* m = om.data_ptr<float>();
      for (int64_t k = 0; k < n_; ++k)
        for (int64_t j = 0; j < n_; ++j) old_pupil_t_.data()[j * n_ + k] = m[k * n_ + j] * fold;
      for (int64_t j = 0; j < n_; ++j) {
        const float* row = old_pupil_t_.data() + j * n_;
        if (std::any_of(row, row + n_, [](float x) { return x != 0.0f; })) {
          old_rows_.push_back(j);
          needed[static_cast<size_t>(j)] = 1;
        }
      }
      old_image_ = AlignedBuffer<cfloat>(plane);
      old_scratch_ = AlignedBuffer<cfloat>(plane);
      // The occupied rows as (first, count) runs, and the gaps between them.
      for (size_t i = 0; i < old_rows_.size(); ++i) {
        if (i > 0 && old_rows_[i] == old_rows_[i - 1] + 1) ++old_runs_.back().second;
        else old_runs_.emplace_back(old_rows_[i], 1);
      }
      int64_t covered = 0;
      for (const auto& [first, count] : old_runs_) {
        if (first > covered) old_gaps_.emplace_back(covered, first - covered);
        covered = first + count;
      }
      if (covered < n_) old_gaps_.emplace_back(covered, n_ - covered);
    }
    for (int64_t j : patch_cols_) {
      if (!needed[static_cast<size_t>(j)]) patch_only_rows_.push_back(j);
      needed[static_cast<size_t>(j)] = 1;
    }
    for (int64_t j = 0; j < n_; ++j)
      if (needed[static_cast<size_t>(j)]) needed_rows_.push_back(j);
    spectrum_ = AlignedBuffer<cfloat>(plane);
    grad_spectrum_ = AlignedBuffer<cfloat>(plane);
    new_image_ = AlignedBuffer<cfloat>(plane);
    new_columns_ = AlignedBuffer<cfloat>(static_cast<size_t>(w_ * n_));
  }

  uint64_t generation() const { return generation_; }

  // Rows of length N worth one thread's start: about kElementsPerTask elements of transform work.
  int64_t rows_per_task() const { return std::max<int64_t>(1, kElementsPerTask / n_); }

  /// Forward pass on the S × S box at (offset, offset); leaves each row's residual for backward().
  std::pair<double, double> forward(const float* object, int64_t box, int64_t offset) {
    size_for(box, offset);
    ++generation_;
    pending_ = true;
    spectrum_of(object);
    const double loss_new = new_row();
    const double loss_old = first_ ? loss_new : old_row();
    return {loss_old, loss_new};
  }

  /// Gradient of g_old · loss_old + g_new · loss_new with respect to the box, written to `grad` ([S, S]).
  void backward(uint64_t generation, float g_old, float g_new, float* grad) {
    TORCH_CHECK(pending_ && generation == generation_,
                "fused physics: backward of a stale forward (another forward ran in between, or backward ran twice)");
    pending_ = false;
    if (first_) g_new += g_old;  // the old row is the new row
    if (!first_) old_row_adjoint(g_old);
    for (int64_t j : patch_only_rows_) std::fill_n(grad_spectrum_.data() + j * n_, n_, cfloat{});
    new_row_adjoint(g_new);
    spectrum_adjoint(grad);
  }

 private:
  void size_for(int64_t box, int64_t offset) {
    TORCH_CHECK(offset >= 0 && offset + box <= n_, "fused physics: the object box does not fit the grid");
    if (box == box_ && offset == offset_) return;
    box_ = box;
    offset_ = offset;
    object_rows_ = AlignedBuffer<float>(static_cast<size_t>(box_ * n_));
    row_spectra_ = AlignedBuffer<cfloat>(static_cast<size_t>(box_ * n_));
    box_columns_ = AlignedBuffer<cfloat>(static_cast<size_t>(box_ * n_));
  }

  // v[j][k] = U[k][j] for every row j a pupil touches. Row pass: r2c on the S non-zero rows; column pass: the
  // n/2 + 1 distinct columns as rows of v; the other columns by the real input's conjugate symmetry.
  void spectrum_of(const float* object) {
    const int64_t half = n_ / 2 + 1;
    for_each_index(box_, rows_per_task(), [&](int64_t i) {
      std::copy_n(object + i * box_, box_, object_rows_.data() + i * n_ + offset_);
      fft_.forward_real(object_rows_.data() + i * n_, row_spectra_.data() + i * n_);
    });
    cfloat* v = spectrum_.data();
    // Each task: its rows j of v, zeroed outside the box, filled from the row spectra's columns j, transformed.
    for_blocks(half, rows_per_task(), [&](int64_t begin, int64_t end) {
      for (int64_t j = begin; j < end; ++j) {
        std::fill_n(v + j * n_, offset_, cfloat{});
        std::fill_n(v + j * n_ + offset_ + box_, n_ - offset_ - box_, cfloat{});
      }
      transpose(row_spectra_.data() + begin, n_, box_, end - begin, v + begin * n_ + offset_, n_);
      for (int64_t j = begin; j < end; ++j) fft_.forward(v + j * n_);
    });
    for_each_index(static_cast<int64_t>(needed_rows_.size()), rows_per_task(), [&](int64_t r) {
      const int64_t j = needed_rows_[static_cast<size_t>(r)];
      if (j < half) return;
      const cfloat* mirror = v + (n_ - j) * n_;
      cfloat* row = v + j * n_;
      row[0] = std::conj(mirror[0]);
      for (int64_t k = 1; k < n_; ++k) row[k] = std::conj(mirror[n_ - k]);
    });
  }

  // Old row: pupil on the occupied rows of v, inverse over k, transpose, inverse over j: y[a][b].
  double old_row() {
    cfloat* scratch = old_scratch_.data();
    for_each_index(static_cast<int64_t>(old_rows_.size()), rows_per_task(), [&](int64_t r) {
      const int64_t j = old_rows_[static_cast<size_t>(r)];
      const cfloat* v = spectrum_.data() + j * n_;
      const float* m = old_pupil_t_.data() + j * n_;
      cfloat* out = scratch + j * n_;
      for (int64_t k = 0; k < n_; ++k) out[k] = v[k] * m[k];
      fft_.inverse(out);
    });
    // Only the occupied rows are transposed; the columns they do not fill are zeroed (the image is overwritten in
    // place every step). Half the transpose's reads at the seed workload's ~270 occupied rows of 512. Each task: its
    // image rows a, filled from the scratch rows' columns a, transformed.
    cfloat* image = old_image_.data();
    for_blocks(n_, rows_per_task(), [&](int64_t begin, int64_t end) {
      for (const auto& [first, count] : old_runs_) transpose(scratch + first * n_ + begin, n_, count, end - begin, image + begin * n_ + first, n_);
      for (int64_t a = begin; a < end; ++a) {
        for (const auto& [first, count] : old_gaps_) std::fill_n(image + a * n_ + first, count, cfloat{});
        fft_.inverse(image + a * n_);
      }
    });
    return l1_residual(old_image_.data(), old_target_.data_ptr<float>(), old_normaliser_);
  }

  // New row: the disc's box moved to the origin; inverse over k on its w columns, transpose, inverse over j.
  double new_row() {
    cfloat* cols = new_columns_.data();
    for_each_index(w_, rows_per_task(), [&](int64_t jj) {
      const cfloat* v = spectrum_.data() + patch_cols_[static_cast<size_t>(jj)] * n_;
      const float* m = patch_pupil_t_.data() + jj * h_;
      cfloat* out = cols + jj * n_;
      for (int64_t kk = 0; kk < h_; ++kk) out[kk] = v[patch_rows_[static_cast<size_t>(kk)]] * m[kk];
      std::fill_n(out + h_, n_ - h_, cfloat{});
      fft_.inverse(out);
    });
    cfloat* image = new_image_.data();
    for_blocks(n_, rows_per_task(), [&](int64_t begin, int64_t end) {
      for (int64_t a = begin; a < end; ++a) std::fill_n(image + a * n_ + w_, n_ - w_, cfloat{});
      transpose(cols + begin, n_, w_, end - begin, image + begin * n_, n_);
      for (int64_t a = begin; a < end; ++a) fft_.inverse(image + a * n_);
    });
    return l1_residual(image, new_target_.data_ptr<float>(), new_normaliser_);
  }

  // Loss Σ|y| − t / (N² d) of one row; y is overwritten by its residual sign(|y| − t) · y/|y| / (N² d) (zero where
  // y = 0, as torch's abs backward).
  double l1_residual(cfloat* y, const float* t, double normaliser) {
    const int64_t count = n_ * n_, blocks = (count + kResidualBlock - 1) / kResidualBlock;
    const float scale = static_cast<float>(1.0 / (static_cast<double>(count) * normaliser));
    // The calling thread's sums, kept from step to step (no allocation per step or per sample); the tasks write
    // disjoint entries.
    static thread_local std::vector<double> block_sums;
    if (block_sums.size() < static_cast<size_t>(blocks)) block_sums.resize(static_cast<size_t>(blocks));
    double* sums = block_sums.data();
    for_blocks(blocks, std::max<int64_t>(1, kElementsPerTask / kResidualBlock), [&](int64_t begin, int64_t end) {
      l1_residual_kernel(reinterpret_cast<float*>(y), t, count, begin, end, scale, sums);
    });
    return sum_in_order(sums, blocks) * (1.0 / (static_cast<double>(count) * normaliser));
  }

  // Adjoint of the old row: forward over b, transpose, forward over k on the occupied rows, pupil: gradient rows.
  void old_row_adjoint(float g) {
    cfloat* image = old_image_.data();
    for_each_index(n_, rows_per_task(), [&](int64_t a) { fft_.forward(image + a * n_); });
    // Only the occupied columns, into the forward's scratch rows (which the next forward overwrites). Each task: its
    // scratch rows j, filled from the image's columns j, transformed, through the pupil.
    cfloat* scratch = old_scratch_.data();
    for_blocks(static_cast<int64_t>(old_rows_.size()), rows_per_task(), [&](int64_t begin, int64_t end) {
      // The task's rows as runs of consecutive j, each transposed as one block of columns.
      for (int64_t r = begin; r < end;) {
        const int64_t first = old_rows_[static_cast<size_t>(r)];
        int64_t count = 1;
        while (r + count < end && old_rows_[static_cast<size_t>(r + count)] == first + count) ++count;
        transpose(image + first, n_, n_, count, scratch + first * n_, n_);
        r += count;
      }
      for (int64_t r = begin; r < end; ++r) {
        const int64_t j = old_rows_[static_cast<size_t>(r)];
        cfloat* row = scratch + j * n_;
        fft_.forward(row);
        const float* m = old_pupil_t_.data() + j * n_;
        cfloat* out = grad_spectrum_.data() + j * n_;
        for (int64_t k = 0; k < n_; ++k) out[k] = row[k] * (m[k] * g);
      }
    });
  }

  // Adjoint of the new row: forward over b keeping j < w, transpose, forward over k keeping k < h, pupil, added
  // at the box's place.
  void new_row_adjoint(float g) {
    cfloat* image = new_image_.data();
    for_each_index(n_, rows_per_task(), [&](int64_t a) { fft_.forward(image + a * n_); });
    cfloat* cols = new_columns_.data();
    // Each task: its columns jj (distinct rows of the gradient spectrum, since the box's columns are distinct).
    for_blocks(w_, rows_per_task(), [&](int64_t begin, int64_t end) {
      transpose(image + begin, n_, n_, end - begin, cols + begin * n_, n_);
      for (int64_t jj = begin; jj < end; ++jj) {
        cfloat* row = cols + jj * n_;
        fft_.forward(row);
        const float* m = patch_pupil_t_.data() + jj * h_;
        cfloat* out = grad_spectrum_.data() + patch_cols_[static_cast<size_t>(jj)] * n_;
        for (int64_t kk = 0; kk < h_; ++kk) out[patch_rows_[static_cast<size_t>(kk)]] += row[kk] * (m[kk] * g);
      }
    });
  }

  // Adjoint of the pruned forward transform: inverse over k on the gradient's non-zero rows, keep a in the box,
  // transpose, inverse over j, keep b in the box, real part.
  void spectrum_adjoint(float* grad) {
    cfloat* gt = grad_spectrum_.data();
    for_each_index(static_cast<int64_t>(needed_rows_.size()), rows_per_task(),
                   [&](int64_t r) { fft_.inverse(gt + needed_rows_[static_cast<size_t>(r)] * n_); });
    // Rows of gt outside needed_rows_ are never written and stay zero. Each task: its box rows a.
    for_blocks(box_, rows_per_task(), [&](int64_t begin, int64_t end) {
      transpose(gt + offset_ + begin, n_, n_, end - begin, box_columns_.data() + begin * n_, n_);
      for (int64_t a = begin; a < end; ++a) {
        cfloat* row = box_columns_.data() + a * n_;
        fft_.inverse(row);
        for (int64_t b = 0; b < box_; ++b) grad[a * box_ + b] = row[offset_ + b].real();
      }
    });
  }

  const int64_t n_;
  const bool first_;
  const RowTransforms& fft_;
  const double old_normaliser_, new_normaliser_;
  at::Tensor old_target_, new_target_;
  int64_t h_ = 0, w_ = 0;
  std::vector<int64_t> patch_rows_, patch_cols_;
  std::vector<int64_t> old_rows_;         // rows j of the transposed old pupil with any non-zero entry
  std::vector<std::pair<int64_t, int64_t>> old_runs_, old_gaps_;  // old_rows_ as (first, count) runs; the rest
  std::vector<int64_t> patch_only_rows_;  // rows j the new pupil touches and the old one does not
  std::vector<int64_t> needed_rows_;      // the union, ascending
  AlignedBuffer<float> old_pupil_t_, patch_pupil_t_;  // transposed pupils, ×1/N²
  AlignedBuffer<cfloat> spectrum_, grad_spectrum_, old_image_, old_scratch_, new_image_, new_columns_;
  int64_t box_ = -1, offset_ = -1;
  AlignedBuffer<float> object_rows_;
  AlignedBuffer<cfloat> row_spectra_, box_columns_;
  uint64_t generation_ = 0;
  bool pending_ = false;
};

namespace {

struct FusedPhysicsNode : torch::autograd::Function<FusedPhysicsNode> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& object, int64_t offset,
                            const std::shared_ptr<FusedL1Physics>& physics) {
    auto box = object.detach().contiguous();
    TORCH_CHECK(box.dim() == 2 && box.size(0) == box.size(1) && box.scalar_type() == at::kFloat,
                "fused physics: the object must be a square float32 matrix");
    const auto [loss_old, loss_new] = physics->forward(box.data_ptr<float>(), box.size(0), offset);
    ctx->saved_data["generation"] = static_cast<int64_t>(physics->generation());
    ctx->saved_data["box"] = box.size(0);
    keep_alive(ctx, "physics", physics);  // the per-sample state lives until this node is released
    return at::tensor({static_cast<float>(loss_old), static_cast<float>(loss_new)}, at::kFloat);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto g = grads[0].to(at::kFloat).contiguous();
    const int64_t box = ctx->saved_data["box"].toInt();
    auto grad = at::empty({box, box}, at::kFloat);
    kept<FusedL1Physics>(ctx, "physics")->backward(static_cast<uint64_t>(ctx->saved_data["generation"].toInt()), g.data_ptr<float>()[0],
                              g.data_ptr<float>()[1], grad.data_ptr<float>());
    return {grad, torch::autograd::Variable(), torch::autograd::Variable()};
  }
};

}  // namespace

std::shared_ptr<FusedL1Physics> make_fused_l1_physics(const FusedPhysicsSetup& setup) {
  return std::make_shared<FusedL1Physics>(setup);
}

at::Tensor fused_l1_physics(const at::Tensor& object, int64_t offset, const std::shared_ptr<FusedL1Physics>& physics) {
  return FusedPhysicsNode::apply(object, offset, physics);
}

}  // namespace recon::detail
