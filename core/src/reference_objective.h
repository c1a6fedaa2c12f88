#pragma once
// The reference pipeline's objective: PRISM's step, operation for operation.
#include "recon/pipeline.h"

namespace recon::detail {

std::unique_ptr<SampleObjective> make_reference_objective(const MeasuredSample& sample);

}  // namespace recon::detail
