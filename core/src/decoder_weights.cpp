#include "decoder_weights.h"

#include <torch/autograd.h>

#include <stdexcept>
#include <string>

namespace recon::detail {
namespace {

std::vector<at::Tensor> tensors_of(ProgressiveDecoderImpl& decoder) {
  auto tensors = decoder.parameters();
  for (auto& buffer : decoder.buffers()) tensors.push_back(buffer);
  return tensors;
}

}  // namespace

std::vector<at::Tensor> copy_weights(ProgressiveDecoderImpl& decoder) {
  std::vector<at::Tensor> copies;
  for (const auto& t : tensors_of(decoder)) copies.push_back(t.detach().clone());
  return copies;
}

void load_weights(ProgressiveDecoderImpl& decoder, const std::vector<at::Tensor>& weights) {
  auto tensors = tensors_of(decoder);
  if (tensors.size() != weights.size()) {
    throw std::invalid_argument("load_weights: " + std::to_string(weights.size()) + " tensors for a decoder of " +
                                std::to_string(tensors.size()));
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i].sizes().equals(weights[i].sizes())) throw std::invalid_argument("load_weights: tensor " + std::to_string(i) + " differs in shape");
  }
  at::NoGradGuard no_grad;
  for (size_t i = 0; i < tensors.size(); ++i) tensors[i].copy_(weights[i]);
}

std::vector<at::Tensor> draw_weights(const DecoderOptions& options) {
  ProgressiveDecoder fresh(options);
  std::vector<at::Tensor> drawn;
  for (const auto& t : tensors_of(*fresh)) drawn.push_back(t.detach());  // the decoder goes; its tensors need no copy
  return drawn;
}

}  // namespace recon::detail
