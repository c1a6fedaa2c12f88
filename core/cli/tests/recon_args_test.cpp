// Contract: every bad argument of `recon reconstruct` is refused with exit code 2 and one line that names the
// option and the rule; good arguments parse into the documented fields; --help exits 0.
#include "recon_args.h"

#include <gtest/gtest.h>

namespace {

recon::cli::ParseOutcome parse(std::vector<std::string> extra) {
  std::vector<std::string> argv = {"recon", "reconstruct"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return recon::cli::parse_recon_args(argv);
}

void expect_refused(std::vector<std::string> extra, const std::string& mentions) {
  const auto o = parse(extra);
  EXPECT_FALSE(o.args.has_value());
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find(mentions), std::string::npos) << o.output;
  EXPECT_EQ(o.output.find('\n'), std::string::npos) << "one line expected: " << o.output;
  EXPECT_EQ(o.output.rfind("recon: error: ", 0), 0u) << o.output;
}

TEST(recon_args, defaults_are_the_seed_workload) {
  const auto o = parse({});
  ASSERT_TRUE(o.args.has_value());
  EXPECT_EQ(o.args->grid, 512);
  EXPECT_EQ(o.args->object, 128);
  EXPECT_EQ(o.args->radius, 20.0);
  EXPECT_EQ(o.args->samples, 20);
  EXPECT_EQ(o.args->steps, 50);
  EXPECT_EQ(o.args->init_steps, 100);
  EXPECT_EQ(o.args->pattern, recon::PatternKind::fermat);
  EXPECT_EQ(o.args->threads, 1);
}

TEST(recon_args, parses_every_documented_option) {
  const auto o = parse({"--target", "star", "--grid", "256", "--object", "64", "--radius", "8.5", "--pattern", "rings",
                        "--samples", "7", "--steps", "3", "--init-steps", "4", "--pipeline", "reference", "--seed", "9",
                        "--threads", "2", "--out", "x", "--loss", "composite", "--snr-db", "30", "--settings",
                        "prism-compat", "--lr", "0.01", "--output-average", "0.95", "--init-candidates", "3", "--refine-epochs", "7",
                        "--candidate-screen", "2,30,10", "--fit-plateau", "2,0.02", "--disable", "fused_adam", "pruned_inverse"});
  ASSERT_TRUE(o.args.has_value()) << o.output;
  EXPECT_EQ(o.args->target, "star");
  EXPECT_EQ(o.args->radius, 8.5);
  EXPECT_EQ(o.args->pattern, recon::PatternKind::rings);
  EXPECT_EQ(o.args->pipeline, recon::PipelineKind::reference);
  EXPECT_EQ(o.args->seed, 9u);
  EXPECT_EQ(*o.args->snr_db, 30.0);
  EXPECT_EQ(o.args->disable.size(), 2u);
  EXPECT_EQ(*o.args->lr, 0.01);
  EXPECT_EQ(*o.args->output_average, 0.95);
  EXPECT_EQ(*o.args->init_candidates, 3);
  EXPECT_EQ(o.args->refine_epochs, 7);
  EXPECT_EQ(o.args->candidate_screen, (std::vector<int64_t>{2, 30, 10}));
  EXPECT_EQ(o.args->fit_plateau, (std::vector<double>{2, 0.02}));
  const auto on_cuda = parse({"--device", "cuda", "--pipeline", "reference"});
  ASSERT_TRUE(on_cuda.args.has_value()) << on_cuda.output;
  EXPECT_EQ(on_cuda.args->device, recon::ComputeDevice::cuda);
  EXPECT_EQ(parse({}).args->device, recon::ComputeDevice::cpu);
}

TEST(recon_args, refuses_bad_values) {
  expect_refused({"--grid", "100"}, "--grid");
  expect_refused({"--grid", "0"}, "--grid");
  expect_refused({"--pattern", "fer\nmat"}, "--pattern");  // found by fuzzing: a newline in the quoted value made two lines
  expect_refused({"--grid", "64", "--object", "65"}, "--object");
  expect_refused({"--radius", "0"}, "--radius");
  expect_refused({"--output-average", "1"}, "--output-average");
  expect_refused({"--output-average", "-0.5"}, "--output-average");
  expect_refused({"--output-average", "nan"}, "--output-average");
  expect_refused({"--fit-plateau", "0,0.1"}, "--fit-plateau");     // a window of no update
  expect_refused({"--fit-plateau", "2.5,0.1"}, "--fit-plateau");   // a fractional window
  expect_refused({"--fit-plateau", "10,0"}, "--fit-plateau");      // a fall of 0 would never stop
  expect_refused({"--fit-plateau", "10,1.5"}, "--fit-plateau");
  expect_refused({"--fit-plateau", "10,nan"}, "--fit-plateau");
  expect_refused({"--fit-plateau", "nan,0.1"}, "--fit-plateau");
  expect_refused({"--fit-plateau", "50,0.1"}, "never closes in a sample of --steps 50");  // 50 updates, 51 evaluations needed
  expect_refused({"--fit-plateau", "10,0.1", "--algorithm", "mpie"}, "needs --algorithm prism");
  expect_refused({"--photons", "1e-310"}, "--photons");
  expect_refused({"--init-candidates", "0"}, "--init-candidates");
  expect_refused({"--init-candidates", "-2"}, "--init-candidates");
  expect_refused({"--init-candidates", "1.5"}, "--init-candidates");
  expect_refused({"--candidate-screen", "2,30"}, "--candidate-screen");
  expect_refused({"--candidate-screen", "2,30,10,4"}, "--candidate-screen");
  expect_refused({"--candidate-screen", "-1,30,10"}, "--candidate-screen");
  expect_refused({"--candidate-screen", "1,30,x"}, "--candidate-screen");
  expect_refused({"--refine-epochs", "-1"}, "--refine-epochs");
  expect_refused({"--refine-epochs", "3", "--algorithm", "epie"}, "needs --algorithm prism");
  expect_refused({"--refine-epochs", "3", "--algorithm", "mpie"}, "needs --algorithm prism");
  expect_refused({"--algorithm", "pie"}, "--algorithm pie: expected prism, epie, rpie or mpie");
  expect_refused({"--snr-db", "30", "--photons", "100"}, "two noise models");
  expect_refused({"--photons", "0"}, "--photons");
  expect_refused({"--photons", "nan"}, "--photons");
  expect_refused({"--read-noise", "2"}, "needs --photons");
  expect_refused({"--overlap", "0.95"}, "--overlap");
  expect_refused({"--overlap", "-0.1"}, "--overlap");
  expect_refused({"--overlap", "nan"}, "--overlap");
  expect_refused({"--overlap", "0.3", "--samples", "40"}, "give it or --samples, not both");
  expect_refused({"--photons", "100", "--read-noise", "-1"}, "--read-noise");
  expect_refused({"--radius", "-3"}, "--radius");
  expect_refused({"--radius", "512.5"}, "--radius");  // wider than the default grid of 512
  expect_refused({"--radius", "inf"}, "--radius");
  expect_refused({"--radius", "nan"}, "--radius");
  expect_refused({"--samples", "0"}, "--samples");
  expect_refused({"--target", "/nonexistent/image.png"}, "cannot open");
  expect_refused({"--target", "notatarget"}, "--target");
  expect_refused({"--pattern", "spiral"}, "--pattern");
  expect_refused({"--pipeline", "fast"}, "--pipeline");
  expect_refused({"--device", "gpu"}, "--device gpu: expected cpu or cuda");
  // cuda trains the deep prior only (either pipeline): ePIE and its variants are CPU code.
  expect_refused({"--device", "cuda", "--algorithm", "epie"}, "--device cuda trains the deep prior only");
  expect_refused({"--device", "cuda", "--pipeline", "reference", "--algorithm", "epie"}, "--device cuda");
  // Choices as their tables spell them (recon/choices.h), so that metrics.json records a name users can look up;
  // the message lists the table's names.
  expect_refused({"--loss", "ms_ssim"}, "expected l1, l2, ssim, ms-ssim or composite");
  expect_refused({"--settings", "prism_compat"}, "--settings");
  expect_refused({"--memory", "measured_data"}, "expected previous-reconstruction or measured-data");
  expect_refused({"--threads", "0"}, "--threads");
  expect_refused({"--disable", "warp"}, "--disable");
  expect_refused({"--grid", "abc"}, "--grid");
  expect_refused({"--no-such-option"}, "no-such-option");
  // A seed beyond 2^63 − 1 is refused, never capped to the largest one (another run than the one asked for).
  expect_refused({"--seed", "9223372036854775808"}, "--seed");
  expect_refused({"--seed", "99999999999999999999"}, "--seed");
  expect_refused({"--seed", "-1"}, "--seed");
  const auto largest = parse({"--seed", "9223372036854775807"});
  ASSERT_TRUE(largest.args.has_value()) << largest.output;
  EXPECT_EQ(largest.args->seed, 9223372036854775807u);
}

TEST(recon_args, missing_subcommand_is_an_error_and_help_is_not) {
  const auto none = recon::cli::parse_recon_args({"recon"});
  EXPECT_EQ(none.exit_code, 2);
  const auto help = recon::cli::parse_recon_args({"recon", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--target"), std::string::npos);
  EXPECT_NE(help.output.find("--pipeline"), std::string::npos);
}

}  // namespace

// Every choice arrives as its type, parsed once; what runs never parses a name again. The candidate screen is checked
// with the other options, against the candidates the run will draw (given, or its preset's).
TEST(recon_args, choices_arrive_as_their_types_and_the_screen_is_checked_against_the_runs_candidates) {
  const auto o = parse({"--algorithm", "rpie", "--loss", "ms-ssim", "--settings", "prism-compat", "--activation", "softplus",
                        "--init-target", "first-measurement", "--memory", "measured-data", "--init-candidates", "3",
                        "--candidate-screen", "2,5,5"});
  ASSERT_TRUE(o.args.has_value()) << o.output;
  EXPECT_EQ(o.args->algorithm, recon::PieVariant::rpie);
  EXPECT_EQ(recon::cli::algorithm_name(*o.args), "rpie");
  EXPECT_EQ(o.args->loss, recon::LossKind::ms_ssim);
  EXPECT_EQ(o.args->settings, recon::SettingsPreset::prism_compat);
  EXPECT_EQ(o.args->activation, recon::OutputActivation::softplus);
  EXPECT_EQ(o.args->init_target, recon::InitTarget::first_measurement);
  EXPECT_EQ(o.args->memory, recon::SampleMemory::measured_data);
  const auto prism = parse({"--algorithm", "prism"});
  ASSERT_TRUE(prism.args.has_value());
  EXPECT_FALSE(prism.args->algorithm.has_value());
  EXPECT_EQ(recon::cli::algorithm_name(*prism.args), "prism");
  EXPECT_FALSE(prism.args->activation.has_value());  // the preset's, unless given
  // The robust preset draws 8 candidates, PRISM's one.
  EXPECT_TRUE(parse({"--candidate-screen", "8,5,5"}).args.has_value());
  expect_refused({"--candidate-screen", "9,5,5"}, "--candidate-screen 9,...: at most the 8 candidates can survive");
  expect_refused({"--settings", "prism-compat", "--candidate-screen", "1,5,5"}, "it needs --init-candidates of 2 or more (this run has 1)");
  expect_refused({"--init-candidates", "2", "--candidate-screen", "3,5,5"}, "at most the 2 candidates");
  EXPECT_TRUE(parse({"--settings", "prism-compat", "--candidate-screen", "0,0,0"}).args.has_value());
}
