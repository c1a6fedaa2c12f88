// The recon command: `recon reconstruct ...` runs one reconstruction and writes its images and metrics.json.
#include "image_io.h"
#include "progress_bar.h"
#include "recon_args.h"
#include "run_outputs.h"

#include "recon/recon.h"

#include <c10/util/Exception.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>

namespace {

using recon::cli::ReconArgs;

struct Prepared {
  recon::ReconstructionProblem problem;
  recon::DecoderOptions decoder{8, 4};
  recon::TrainerOptions trainer;
};

// A scenario supplies every geometry and budget option the command line did not give.
ReconArgs with_scenario(ReconArgs a) {
  if (a.scenario.empty()) return a;
  const auto& scene = recon::scenario(a.scenario);
  auto unless_given = [&](const char* option, auto& field, auto value) {
    if (a.given.count(option) == 0) field = value;
  };
  unless_given("--target", a.target, recon::to_string(scene.target));
  unless_given("--grid", a.grid, scene.grid);
  unless_given("--object", a.object, scene.object);
  unless_given("--radius", a.radius, scene.radius);
  unless_given("--pattern", a.pattern, scene.pattern);
  unless_given("--samples", a.samples, scene.samples);
  unless_given("--steps", a.steps, scene.steps_per_sample);
  unless_given("--init-steps", a.init_steps, scene.init_steps);
  return a;
}

Prepared prepare(const ReconArgs& a) {
  Prepared p;
  if (const auto builtin = recon::find_choice<recon::TargetKind>(a.target)) {  // validate() allows a name or an image path
    p.problem.ground_truth = recon::synthetic_target(*builtin, a.object, a.grid);
  } else {
    auto image = recon::cli::read_grayscale(a.target);
    if (a.invert) image = 255.0 - image;
    p.problem.ground_truth = recon::prepare_target(image, a.object, a.grid);
  }
  p.problem.object_size = a.object;
  p.problem.radius = a.radius;
  recon::PatternOptions pattern(a.pattern, a.samples, static_cast<double>(a.grid) / 2.0);
  pattern.seed = a.seed;
  p.problem.centers = recon::sample_centers(pattern);

  p.decoder = recon::DecoderOptions(a.grid, a.object);
  p.trainer.init_steps = a.init_steps;
  p.trainer.steps_per_sample = a.steps;
  p.trainer.plateau_stop = a.plateau_stop;
  if (!a.fit_plateau.empty()) p.trainer.fit_plateau = {static_cast<int64_t>(a.fit_plateau[0]), a.fit_plateau[1]};
  p.trainer.loss.kind = a.loss;
  if (a.snr_db) {
    p.trainer.noise.enabled = true;
    p.trainer.noise.snr_db = *a.snr_db;
    p.trainer.noise.seed = a.seed;
  }
  if (a.photons) p.trainer.noise = recon::photon_noise(*a.photons, a.read_noise.value_or(0.0), p.problem.ground_truth, a.seed);
  p.trainer.pipeline.kind = a.pipeline;
  p.trainer.pipeline.device = a.device;
  // Turning a switch off turns off the switches that need it (the table's needs), so that any list is a valid plan.
  for (const auto& name : a.disable) p.trainer.pipeline.switches = p.trainer.pipeline.switches.without(name);
  recon::apply_preset(a.settings, p.decoder, p.trainer);
  if (a.loss_threshold) p.trainer.loss_threshold = *a.loss_threshold;
  if (a.activation) p.decoder.output_activation(*a.activation);
  if (a.init_target) p.trainer.init_target = *a.init_target;
  if (a.lr) p.trainer.learning_rate = *a.lr;
  if (a.init_lr) p.trainer.init_learning_rate = *a.init_lr;
  if (a.isolated_lr) p.trainer.isolated_learning_rate = *a.isolated_lr;
  if (a.normalize_loss) p.trainer.loss.normalize = *a.normalize_loss;
  if (a.keep_optimizer) p.trainer.fresh_optimizer_per_sample = !*a.keep_optimizer;
  if (a.memory) p.trainer.memory = *a.memory;
  if (a.replayed_per_step) p.trainer.replayed_per_step = *a.replayed_per_step;
  if (a.output_average) p.trainer.output_average = *a.output_average;
  if (a.init_candidates) p.trainer.init_candidates = *a.init_candidates;
  if (!a.candidate_screen.empty()) p.trainer.candidate_screen = {a.candidate_screen[0], a.candidate_screen[1], a.candidate_screen[2]};
  return p;
}

nlohmann::json run_prism(const ReconArgs& a, Prepared& p, at::Tensor& reconstruction) {
  recon::seed_everything(a.seed);
  recon::ProgressiveDecoder decoder(p.decoder);
  recon::cli::ProgressBar bar(a.progress);
  auto result = recon::reconstruct(decoder, p.problem, p.trainer, [&](const recon::Progress& progress) {
    if (progress.phase == recon::Progress::Phase::init) {
      bar.update("init", progress.step, progress.steps, progress.loss);
    } else {
      bar.update("sample " + std::to_string(progress.sample) + "/" + std::to_string(progress.samples), progress.step,
                 progress.steps, progress.loss);
    }
  });
  bar.finish();
  reconstruction = result.reconstruction;
  nlohmann::json trajectory = nlohmann::json::array();
  for (const auto& s : result.samples) {
    auto entry = recon::cli::quality_json(s.quality);
    entry["index"] = s.index;
    entry["center_y"] = s.center.y;
    entry["center_x"] = s.center.x;
    entry["steps"] = s.steps;
    // Measured only when the isolated rate is on; null otherwise rather than a 0 that reads as "no overlap".
    entry["covered"] = p.trainer.isolated_learning_rate > 0.0 ? nlohmann::json(s.covered) : nlohmann::json(nullptr);
    entry["learning_rate"] = s.learning_rate;
    entry["first_loss"] = s.first_loss;
    entry["loss_old"] = s.loss_old;
    entry["loss_new"] = s.loss_new;
    entry["converged"] = s.converged;
    entry["plateaued"] = s.plateaued;
    entry["seconds"] = s.seconds;
    trajectory.push_back(entry);
  }
  const auto final_quality = result.samples.back().quality;
  auto metrics = recon::cli::quality_json(final_quality);
  metrics["steps"] = result.total_steps;
  metrics["init_steps"] = result.init_steps;
  metrics["init_loss"] = result.init_loss;
  metrics["seconds_total"] = result.seconds_total;
  metrics["seconds_init"] = result.seconds_init;
  metrics["seconds_per_step"] = result.total_steps > 0 ? result.seconds_total / static_cast<double>(result.total_steps) : 0.0;
  metrics["parameters"] = recon::parameter_count(*decoder);
  metrics["trajectory"] = trajectory;
  metrics["trajectory_gain_db"] = recon::trajectory_gain_db(result);
  metrics["seconds_to_quality"] = recon::seconds_to_quality(result, 0.5);
  // The switches as they ran: the execution plan's (on cuda it turns off those with no implementation there).
  const recon::ExecutionPlan plan(p.trainer.pipeline);
  nlohmann::json switches;
  for (const auto& name : recon::OptimizationSwitches::names()) switches[name] = plan.switches().by_name(name);
  metrics["switches"] = p.trainer.pipeline.kind == recon::PipelineKind::optimized ? switches : nlohmann::json(nullptr);
  metrics["output_activation"] = recon::to_string(p.decoder.output_activation());
  metrics["init_target"] = recon::to_string(p.trainer.init_target);
  metrics["learning_rate"] = p.trainer.learning_rate;
  metrics["normalize_loss"] = p.trainer.loss.normalize;
  metrics["loss_threshold"] = p.trainer.loss_threshold;
  metrics["init_learning_rate"] = p.trainer.init_learning_rate;
  metrics["isolated_learning_rate"] = p.trainer.isolated_learning_rate;
  metrics["fresh_optimizer_per_sample"] = p.trainer.fresh_optimizer_per_sample;
  metrics["memory"] = recon::to_string(p.trainer.memory);
  metrics["replayed_per_step"] = p.trainer.replayed_per_step;
  metrics["output_average"] = p.trainer.output_average;
  metrics["init_candidates"] = p.trainer.init_candidates;
  nlohmann::json candidates = nlohmann::json::array();
  const auto number_or_null = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  for (const auto& c : result.init_candidates) {
    candidates.push_back({{"init_steps", c.init_steps}, {"init_loss", c.init_loss}, {"trial_loss", number_or_null(c.trial_loss)},
                          {"screen_loss", number_or_null(c.screen_loss)}, {"screened_out", c.screened_out}});
  }
  const auto& screen = p.trainer.candidate_screen;
  metrics["candidate_screen"] = screen.survivors > 0 ? nlohmann::json{{"survivors", screen.survivors}, {"init_steps", screen.init_steps},
                                                                      {"trial_steps", screen.trial_steps}}
                                                     : nlohmann::json(nullptr);
  const auto& plateau = p.trainer.fit_plateau;
  metrics["fit_plateau"] = plateau.enabled() ? nlohmann::json{{"window", plateau.window}, {"min_fall", plateau.min_fall}}
                                             : nlohmann::json(nullptr);
  metrics["init_candidate_fits"] = candidates;
  metrics["chosen_candidate"] = result.chosen_candidate;
  return metrics;
}

// A classical solver with its published defaults on the same measurements and noise.
nlohmann::json run_classical(const ReconArgs& a, const Prepared& p, at::Tensor& reconstruction, recon::PieVariant variant) {
  auto options = recon::EpieOptions::defaults(variant);
  options.epochs = a.epochs;
  options.seed = a.seed;
  const auto start = std::chrono::steady_clock::now();
  auto result = recon::epie_reconstruct(p.problem, options, p.trainer.noise);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  reconstruction = result.reconstruction;
  auto metrics = recon::cli::quality_json(recon::evaluate(result.reconstruction, p.problem.ground_truth, a.object));
  const int64_t updates = a.epochs * a.samples;
  metrics["steps"] = updates;
  metrics["seconds_total"] = seconds;
  metrics["seconds_per_step"] = updates > 0 ? seconds / static_cast<double>(updates) : 0.0;
  metrics["parameters"] = a.object * a.object;
  metrics["solver"] = {{"name", recon::to_string(variant)}, {"object_step", options.object_step}};
  if (variant != recon::PieVariant::epie) metrics["solver"]["regularization"] = options.regularization;
  if (variant == recon::PieVariant::mpie) {
    metrics["solver"]["friction"] = options.friction;
    metrics["solver"]["feedback"] = options.feedback;
    metrics["solver"]["momentum_period"] = options.momentum_period;
  }
  nlohmann::json trajectory = nlohmann::json::array();
  for (size_t e = 0; e < result.per_epoch.size(); ++e) {
    auto entry = recon::cli::quality_json(result.per_epoch[e]);
    entry["epoch"] = e + 1;
    trajectory.push_back(entry);
  }
  metrics["trajectory"] = trajectory;
  return metrics;
}

// Refines the deep prior's `reconstruction` by ePIE from it (clamped to [0, 1], as ePIE keeps every estimate), on the
// same measurements and noise: the refined picture becomes the run's output and its quality the top-level figures of
// `metrics`. Returns what was refined: the epochs that ran, their seconds and the deep prior's own quality, so that
// both stay visible (the trajectory, its gain and seconds_to_quality stay the deep prior's).
nlohmann::json refine_with_epie(const ReconArgs& a, const Prepared& p, at::Tensor& reconstruction, nlohmann::json& metrics,
                                double deep_prior_unmeasured_fraction) {
  recon::EpieOptions options;
  options.epochs = a.refine_epochs;
  options.seed = a.seed;
  options.start = reconstruction;
  const auto start = std::chrono::steady_clock::now();
  auto result = recon::epie_reconstruct(p.problem, options, p.trainer.noise);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::json refine = {{"epochs", result.per_epoch.size()},
                           {"seconds", seconds},
                           {"deep_prior", {{"psnr_db", metrics["psnr_db"]},
                                           {"ssim", metrics["ssim"]},
                                           {"error_unmeasured_fraction", deep_prior_unmeasured_fraction}}}};
  const auto refined = recon::cli::quality_json(recon::evaluate(result.reconstruction, p.problem.ground_truth, a.object));
  for (auto field = refined.begin(); field != refined.end(); ++field) metrics[field.key()] = field.value();
  refine["psnr_gain_db"] = metrics["psnr_db"].is_null() || refine["deep_prior"]["psnr_db"].is_null()
                               ? nlohmann::json(nullptr)
                               : nlohmann::json(metrics["psnr_db"].get<double>() - refine["deep_prior"]["psnr_db"].get<double>());
  reconstruction = result.reconstruction;
  return refine;
}

// Why `folder` could not receive the outputs, or "": it must be a writable folder or creatable in one. Checked
// before the run (a long run must not end in "cannot write"), created only after it.
std::string output_folder_problem(const std::string& folder) {
  std::error_code error;
  auto at = std::filesystem::absolute(folder, error);
  if (error) return "not a usable path";
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(at, error)) && !std::filesystem::exists(at, error)) {
    return "a symbolic link to nothing";
  }
  while (!std::filesystem::exists(at, error)) {
    if (at == at.parent_path()) return "no existing folder above it";
    at = at.parent_path();
  }
  if (!std::filesystem::is_directory(at, error)) return "'" + at.string() + "' is not a folder";
  if (access(at.c_str(), W_OK | X_OK) != 0) return "'" + at.string() + "' is not writable";
  return "";
}

// --overlap picks the sample count on the pattern, grid and radius the arguments give (validated first).
ReconArgs with_overlap(ReconArgs a) {
  if (!a.overlap) return a;
  recon::PatternOptions pattern(a.pattern, 1, static_cast<double>(a.grid) / 2.0);
  pattern.seed = a.seed;
  a.samples = recon::samples_for_overlap(pattern, a.radius, *a.overlap);
  return a;
}

int run(const ReconArgs& given) {
  const ReconArgs scene = with_scenario(given);
  const auto context = scene.scenario.empty() ? std::string() : " (with --scenario " + scene.scenario + ")";
  if (const auto problem = recon::cli::validate(scene); !problem.empty()) throw std::invalid_argument(problem + context);
  const ReconArgs a = with_overlap(scene);
  if (const auto problem = recon::cli::validate(a); !problem.empty()) {
    throw std::invalid_argument(problem + context + " (with --overlap: " + std::to_string(a.samples) + " samples)");
  }
  if (const auto problem = output_folder_problem(a.out); !problem.empty()) throw std::invalid_argument("--out " + a.out + ": " + problem);
  recon::cli::require_writable_outputs(a.out);
  recon::set_threads(a.threads);
  auto prepared = prepare(a);
  at::Tensor reconstruction;
  auto metrics = a.algorithm ? run_classical(a, prepared, reconstruction, *a.algorithm) : run_prism(a, prepared, reconstruction);
  // A reconstruction with NaN or infinite values has no quality to report; say so instead of printing "inf dB" (or
  // refining it).
  const auto require_finite = [&reconstruction, &metrics] {
    if (!reconstruction.isfinite().all().item<bool>() || !std::isfinite(metrics["ssim"].get<double>())) {
      throw std::runtime_error("the reconstruction is not finite (NaN or infinite values); nothing was written");
    }
  };
  require_finite();
  // Where the remaining error lies: in the measured frequencies (the data fit's) or outside them (the prior's guess).
  const auto bands = [&prepared](const at::Tensor& estimate) {
    const auto& problem = prepared.problem;
    return recon::error_bands(estimate, problem.ground_truth, problem.object_size, problem.centers, problem.radius);
  };
  const auto unmeasured_fraction = [&bands](const at::Tensor& estimate) { return bands(estimate).unmeasured_fraction(); };
  if (a.refine_epochs > 0) {
    metrics["refine"] = refine_with_epie(a, prepared, reconstruction, metrics, unmeasured_fraction(reconstruction));
    require_finite();
  } else {
    metrics["refine"] = nullptr;
  }
  const auto output_bands = bands(reconstruction);
  metrics["error_unmeasured_fraction"] = output_bands.unmeasured_fraction();
  metrics["error_disc_phase_fraction"] = output_bands.disc_phase_fraction();
  if (a.compare_epie && a.algorithm != recon::PieVariant::epie) {
    // The classical baseline on the same measurements (same problem, noise and seed), for the verdict a user wants
    // first: does the output (the deep prior's, or its refinement with --refine-epochs) beat it?
    at::Tensor epie_reconstruction;
    const auto epie = run_classical(a, prepared, epie_reconstruction, recon::PieVariant::epie);
    metrics["epie"] = {{"psnr_db", epie["psnr_db"]}, {"ssim", epie["ssim"]}, {"epochs", a.epochs},
                       {"seconds_total", epie["seconds_total"]},
                       {"error_unmeasured_fraction", unmeasured_fraction(epie_reconstruction)}};
    if (!metrics["psnr_db"].is_null() && !epie["psnr_db"].is_null()) {
      metrics["psnr_minus_epie_db"] = metrics["psnr_db"].get<double>() - epie["psnr_db"].get<double>();
    }
  }
  const auto info = recon::runtime_info();
  metrics["algorithm"] = recon::cli::algorithm_name(a);
  metrics["scenario"] = a.scenario.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.scenario);
  metrics["pipeline"] = recon::to_string(a.pipeline);
  metrics["device"] = recon::to_string(a.device);
  // On cuda the pipeline's scope keeps float32 exact (recon/pipeline.h): no TF32 anywhere, on any device.
  metrics["tf32"] = false;
  metrics["settings"] = recon::to_string(a.settings);
  metrics["seed"] = a.seed;
  metrics["threads"] = info.threads;
  metrics["target"] = a.target;
  metrics["grid"] = a.grid;
  metrics["object"] = a.object;
  metrics["radius"] = a.radius;
  metrics["pattern"] = recon::to_string(a.pattern);
  metrics["samples"] = a.samples;
  metrics["neighbour_overlap"] = recon::neighbour_overlap(prepared.problem.centers, a.radius);
  metrics["loss"] = recon::to_string(a.loss);
  metrics["snr_db"] = a.snr_db ? nlohmann::json(*a.snr_db) : nlohmann::json(nullptr);
  const auto& noise = prepared.trainer.noise;
  metrics["photons"] = noise.photons > 0.0 ? nlohmann::json(noise.photons) : nlohmann::json(nullptr);
  metrics["read_noise"] = noise.photons > 0.0 ? nlohmann::json(noise.read_noise) : nlohmann::json(nullptr);
  metrics["photon_reference_intensity"] = noise.photons > 0.0 ? nlohmann::json(noise.reference_intensity) : nlohmann::json(nullptr);
  metrics["torch_version"] = info.torch_version;
  metrics["cpu_capability"] = info.cpu_capability;
  metrics["cpu_model"] = info.cpu_model;
  metrics["blas_kernels"] = info.blas_kernels;
  // Only now, and removed again if the outputs cannot be written: a failed run leaves no empty output folder behind.
  const bool created = std::filesystem::create_directories(a.out);
  try {
    recon::cli::write_outputs(a.out, reconstruction, prepared.problem.ground_truth, a.object, prepared.problem.centers,
                              a.radius, metrics);
  } catch (...) {
    std::error_code ignored;
    if (created) std::filesystem::remove(a.out, ignored);  // removes only an empty folder
    throw;
  }
  std::printf("%s %s seed %llu: PSNR %.2f dB, SSIM %.4f, RMSE %.2f %%, %.1f ms/step, %.1f s -> %s\n", recon::cli::algorithm_name(a).c_str(),
              recon::to_string(a.pipeline).c_str(), static_cast<unsigned long long>(a.seed),
              metrics["psnr_db"].is_null() ? std::numeric_limits<double>::infinity() : metrics["psnr_db"].get<double>(),
              metrics["ssim"].get<double>(), metrics["rmse_pct"].get<double>(),
              1000.0 * metrics["seconds_per_step"].get<double>(), metrics["seconds_total"].get<double>(), a.out.c_str());
  if (metrics.contains("trajectory_gain_db")) {
    const auto& first = metrics["trajectory"].front()["psnr_db"];
    std::printf("  samples added %+.2f dB (first %.2f dB); within 0.5 dB of their final PSNR after %.1f s\n",
                metrics["trajectory_gain_db"].get<double>(), first.is_null() ? std::numeric_limits<double>::infinity() : first.get<double>(),
                metrics["seconds_to_quality"].get<double>());
  }
  if (!metrics["refine"].is_null() && !metrics["refine"]["psnr_gain_db"].is_null()) {
    std::printf("  refined by %lld ePIE epochs (%.1f s more): the deep prior's %.2f dB became %.2f dB\n",
                metrics["refine"]["epochs"].get<long long>(), metrics["refine"]["seconds"].get<double>(),
                metrics["refine"]["deep_prior"]["psnr_db"].get<double>(), metrics["psnr_db"].get<double>());
  }
  if (metrics.contains("epie") && !metrics["epie"]["psnr_db"].is_null()) {
    std::printf("  ePIE on the same measurements (%lld epochs): PSNR %.2f dB, SSIM %.4f\n", static_cast<long long>(a.epochs),
                metrics["epie"]["psnr_db"].get<double>(), metrics["epie"]["ssim"].get<double>());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  const auto outcome = recon::cli::parse_recon_args(args);
  if (!outcome.args) {
    (outcome.exit_code == 0 ? std::cout : std::cerr) << outcome.output << '\n';
    return outcome.exit_code;
  }
  // Every failure becomes one line and exit code 2; LibTorch's errors lose their C++ backtrace.
  try {
    return run(*outcome.args);
  } catch (const c10::Error& e) {
    std::cerr << "recon: error: " << recon::cli::one_line(e.what_without_backtrace()) << '\n';
  } catch (const std::exception& e) {
    std::cerr << "recon: error: " << recon::cli::one_line(e.what()) << '\n';
  }
  return 2;
}
