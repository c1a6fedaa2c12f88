#pragma once
// The optimized pipeline's objective: the reference's mathematics with each saving behind a switch.
#include "recon/pipeline.h"

namespace recon::detail {

/// `switches` come from an ExecutionPlan: every switch that is on has what it needs on (unmet_switch_need is "").
std::unique_ptr<SampleObjective> make_optimized_objective(const MeasuredSample& sample, const OptimizationSwitches& switches);

}  // namespace recon::detail
