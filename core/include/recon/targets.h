#pragma once
/// Ground-truth objects: built-in synthetic targets and the preparation PRISM applies to image files.
#include "recon/choices.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <string>

namespace recon {


/// A synthetic object as an [S, S] float32 intensity image in [0, 1], anti-aliased by 4×4 supersampling.
at::Tensor synthetic_object(TargetKind kind, int64_t object_size);

/// PRISM's preparation of an intensity image into a ground-truth amplitude on the N×N grid:
/// resize (bilinear, antialiased) so the shorter side is S and centre-crop to S×S, round to 8 bits as PRISM's
/// uint8 pipeline does, zero-pad centrally to N (pre = (N − S)/2), min–max normalise to [0, 1], square root.
/// `image`: [H, W] real tensor with values in [0, 255]. Returns [N, N] float32, non-negative.
at::Tensor prepare_target(const at::Tensor& image, int64_t object_size, int64_t grid_size);

/// The ground truth of a synthetic target, prepared exactly like an image file of it: [N, N] float32.
at::Tensor synthetic_target(TargetKind kind, int64_t object_size, int64_t grid_size);

}  // namespace recon
