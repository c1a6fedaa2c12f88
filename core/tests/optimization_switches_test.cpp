// The switch table and the execution plan built on it: names, needs, and the refusal of a plan whose switches do
// not have what they need.
#include "recon/optimization_switches.h"
#include "recon/pipeline.h"

#include <ATen/Context.h>
#include <gtest/gtest.h>
#include <torch/version.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

TEST(optimization_switches, names_follow_the_table_in_order) {
  const auto& table = recon::switch_table();
  const auto& names = recon::OptimizationSwitches::names();
  ASSERT_EQ(names.size(), table.size());
  const recon::OptimizationSwitches defaults;
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(names[i], table[i].name);
    EXPECT_EQ(defaults.by_name(table[i].name), table[i].on_by_default) << table[i].name;
    EXPECT_FALSE(table[i].doc.empty()) << table[i].name;
  }
}

TEST(optimization_switches, turning_one_off_turns_off_what_needs_it) {
  const auto s = recon::OptimizationSwitches{}.without("fold_shifts");
  EXPECT_FALSE(s.fold_shifts);
  EXPECT_FALSE(s.pruned_inverse);  // needs fold_shifts
  EXPECT_FALSE(s.fused_physics);   // needs pruned_inverse, so fold_shifts indirectly
  EXPECT_TRUE(s.pruned_forward);   // needs nothing that went off
  EXPECT_TRUE(s.matvec_first_layer);
  EXPECT_EQ(recon::unmet_switch_need(s), "");
  const auto m = recon::OptimizationSwitches{}.without("matvec_first_layer");
  EXPECT_FALSE(m.factored_first_layer_grad);
  EXPECT_TRUE(recon::OptimizationSwitches{}.toggled("subpixel_upsampling").subpixel_upsampling);
}

TEST(optimization_switches, defaults_and_none_are_valid_plans) {
  EXPECT_EQ(recon::unmet_switch_need(recon::OptimizationSwitches{}), "");
  EXPECT_EQ(recon::unmet_switch_need(recon::OptimizationSwitches::none()), "");
  for (const auto& name : recon::OptimizationSwitches::names()) {
    EXPECT_EQ(recon::unmet_switch_need(recon::OptimizationSwitches{}.toggled(name)), "") << name;
  }
}

TEST(execution_plan, refuses_a_switch_without_what_it_needs_naming_both) {
  recon::PipelineOptions options;
  options.switches.pruned_forward = false;  // fused_physics stays on
  try {
    recon::ExecutionPlan plan(options);
    FAIL() << "the plan accepted fused_physics without pruned_forward";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "optimisation switches: fused_physics needs pruned_forward, which is off");
  }
}

TEST(execution_plan, reference_pipeline_runs_no_switch) {
  recon::PipelineOptions options;
  options.kind = recon::PipelineKind::reference;
  options.switches.pruned_forward = false;  // ignored: the reference pipeline has no switches
  const recon::ExecutionPlan plan(options);
  for (const auto& name : recon::OptimizationSwitches::names()) EXPECT_FALSE(plan.switches().by_name(name)) << name;
}

TEST(execution_plan, carries_its_device) {
  const recon::ExecutionPlan on_cpu(recon::PipelineOptions{});
  EXPECT_EQ(on_cpu.device(), recon::ComputeDevice::cpu);
  EXPECT_TRUE(on_cpu.torch_device().is_cpu());
}

TEST(switch_table, on_cuda_keeps_what_runs_there) {
  // What runs on CUDA, written out here rather than read from the table, so that a wrong column fails.
  const std::vector<std::string> any_device = {"precompute_sample", "shared_spectrum", "fold_shifts", "pruned_forward",
                                               "pruned_inverse", "matvec_first_layer", "factored_first_layer_grad",
                                               "box_init_loss"};
  const std::vector<std::string> own_kernel = {"fused_physics", "fused_batchnorm_relu", "fused_adam"};
  const std::vector<std::string> cpu_only = {"blas_upsampling", "small_channel_conv", "caching_allocator"};
  const recon::OptimizationSwitches defaults;
  for (const bool own_kernels : {true, false}) {
    SCOPED_TRACE(own_kernels ? "with the core's CUDA kernels" : "without them");
    const auto on_cuda = defaults.on_cuda(own_kernels);
    EXPECT_EQ(recon::unmet_switch_need(on_cuda), "");
    for (const auto& name : any_device) EXPECT_TRUE(on_cuda.by_name(name)) << name;
    for (const auto& name : own_kernel) EXPECT_EQ(on_cuda.by_name(name), own_kernels) << name;
    for (const auto& name : cpu_only) EXPECT_FALSE(on_cuda.by_name(name)) << name;
    EXPECT_FALSE(on_cuda.subpixel_upsampling);  // off by default, and on_cuda turns nothing on
    // Nothing is turned on: from no switches, none; from the defaults, no switch that was off.
    const auto from_none = recon::OptimizationSwitches::none().on_cuda(own_kernels);
    for (const auto& name : recon::OptimizationSwitches::names()) {
      EXPECT_FALSE(from_none.by_name(name)) << name;
      if (!defaults.by_name(name)) {
        EXPECT_FALSE(on_cuda.by_name(name)) << name;
      }
    }
  }
}

// make_optimizer follows the plan's fused_adam switch and no other. The two Adams agree to rounding, so they are told
// apart by what they leave behind: the fused one updates the factored first-layer weight from its two factors (the
// weight's grad() stays undefined), LibTorch's from the dense gradient it forms first.
TEST(execution_plan, make_optimizer_follows_the_fused_adam_switch) {
  auto forms_the_dense_gradient = [](const recon::OptimizationSwitches& switches) {
    recon::PipelineOptions options;
    options.switches = switches;
    const recon::ExecutionPlan plan(options);
    auto decoder_options = recon::DecoderOptions(64, 16);
    recon::configure_decoder(decoder_options, plan);
    recon::ProgressiveDecoder decoder(decoder_options);
    auto adam = recon::make_optimizer(plan, decoder, 1e-3);
    adam->zero_grad();
    decoder->forward_object().sum().backward();
    adam->step();
    return decoder->first_layer_weight().grad().defined();
  };
  const recon::OptimizationSwitches defaults;
  EXPECT_FALSE(forms_the_dense_gradient(defaults));
  EXPECT_TRUE(forms_the_dense_gradient(defaults.without("fused_adam")));
  // Every other switch off in turn leaves the fused Adam (those the factored gradient needs make it dense anyway).
  for (const auto& name : recon::OptimizationSwitches::names()) {
    if (name == "fused_adam" || name == "matvec_first_layer" || name == "factored_first_layer_grad") continue;
    EXPECT_FALSE(forms_the_dense_gradient(defaults.without(name))) << name << " off changed the optimizer";
  }
}

TEST(execution_plan, plans_the_optimized_pipeline_on_cuda_only_where_libtorch_sees_a_device) {
  recon::PipelineOptions options;
  options.device = recon::ComputeDevice::cuda;
  if (at::hasCUDA()) {
    const recon::ExecutionPlan plan(options);
    EXPECT_FALSE(plan.switches().blas_upsampling || plan.switches().caching_allocator);
    return;
  }
  try {
    recon::ExecutionPlan plan(options);
    FAIL() << "the optimized pipeline was planned on cuda where LibTorch sees no CUDA device";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sees no CUDA device"), std::string::npos) << e.what();
  }
}

TEST(execution_plan, plans_cuda_only_where_libtorch_sees_a_device) {
  recon::PipelineOptions options;
  options.kind = recon::PipelineKind::reference;
  options.device = recon::ComputeDevice::cuda;
  if (at::hasCUDA()) {
    const recon::ExecutionPlan plan(options);
    EXPECT_TRUE(plan.torch_device().is_cuda());
    return;
  }
  try {
    recon::ExecutionPlan plan(options);
    FAIL() << "cuda was planned where LibTorch sees no CUDA device";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("device cuda: LibTorch " + std::string(TORCH_VERSION) + " sees no CUDA device"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
