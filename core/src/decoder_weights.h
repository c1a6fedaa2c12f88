#pragma once
// Copies of a decoder's weights, for the multi-start initialisation (TrainerOptions::init_candidates): a candidate is
// drawn, initialised, kept as a copy, and the chosen one is put back.
#include "recon/decoder.h"

#include <ATen/ATen.h>

#include <vector>

namespace recon::detail {

/// Every parameter and buffer of `decoder` (BatchNorm's running statistics included), detached copies in the
/// module's registration order.
std::vector<at::Tensor> copy_weights(ProgressiveDecoderImpl& decoder);

/// Writes `weights` (from copy_weights of a decoder with the same options) into `decoder` in place: the tensors the
/// caller's optimizers hold stay the same objects. Throws std::invalid_argument when the count or a shape differs.
void load_weights(ProgressiveDecoderImpl& decoder, const std::vector<at::Tensor>& weights);

/// A new draw of weights for a decoder with `options`: those of a decoder constructed now, so the draw comes from the
/// global generator exactly as the first decoder's did.
std::vector<at::Tensor> draw_weights(const DecoderOptions& options);

}  // namespace recon::detail
