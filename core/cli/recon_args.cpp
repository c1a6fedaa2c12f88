#include "recon_args.h"

#include "recon/limits.h"
#include "recon/optimization_switches.h"
#include "recon/sample_overlap.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace recon::cli {
namespace {

const std::set<std::string> kBuiltinTargets = {"usaf", "star", "planet", "points", "disc"};
// The optimisation switches' names come from their table (recon/optimization_switches.h).
std::set<std::string> switch_names() {
  const auto& names = recon::OptimizationSwitches::names();
  return {names.begin(), names.end()};
}

const std::set<std::string> kPatterns = {"fermat", "random", "rings", "jittered", "star"};
const std::set<std::string> kLosses = {"l1", "l2", "ssim", "ms-ssim", "composite"};
const std::set<std::string> kActivations = {"none", "relu", "sigmoid", "softplus", "abs"};

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

bool has_image_extension(const std::string& path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos) return false;
  std::string ext = path.substr(dot + 1);
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == "png" || ext == "jpg" || ext == "jpeg";
}

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void add_reconstruct_options(CLI::App& cmd, ReconArgs& a) {
  cmd.add_option("--scenario", a.scenario,
                 "a built-in scene with a known answer (seed, partial, dense): sets target, grid, object, radius, pattern, "
                 "samples, steps and init-steps unless given");
  cmd.add_flag("--compare-epie", a.compare_epie, "also run ePIE (--epochs) on the same measurements and report both");
  cmd.add_option("--target", a.target, "usaf, star, planet, points, disc, or a PNG/JPEG image path")->capture_default_str();
  cmd.add_option("--grid", a.grid, "grid size N (power of two)")->capture_default_str();
  cmd.add_option("--object", a.object, "object size S in pixels (6 <= S <= N)")->capture_default_str();
  cmd.add_option("--radius", a.radius, "sub-aperture radius in k-space pixels, 1 <= r < N/2")->capture_default_str();
  cmd.add_option("--pattern", a.pattern, "fermat, random, rings, jittered or star")->capture_default_str();
  cmd.add_option("--samples", a.samples, "number of sub-aperture samples (>= 1)")->capture_default_str();
  cmd.add_option("--steps", a.steps, "gradient steps per sample")->capture_default_str();
  cmd.add_option("--init-steps", a.init_steps, "initialisation steps")->capture_default_str();
  cmd.add_option("--pipeline", a.pipeline, "reference or optimized")->capture_default_str();
  cmd.add_option("--disable", a.disable, "optimisation switches to turn off (optimized pipeline; the switches that need one go off with it): " + join(switch_names()));
  cmd.add_option("--algorithm", a.algorithm, "prism (deep-prior trainer) or epie (classical baseline)")->capture_default_str();
  cmd.add_option("--epochs", a.epochs, "epie only: passes over all samples")->capture_default_str();
  cmd.add_option("--seed", a.seed, "seed of the decoder's initialisation, random patterns and noise (0 to 2^63-1)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {  // CLI11 would clamp an out-of-range number, not refuse it
            errno = 0;
            char* end = nullptr;
            const long long v = std::strtoll(text.c_str(), &end, 10);
            return errno == 0 && end != text.c_str() && *end == '\0' && v >= 0 ? std::string() : "'" + text + "' is not a seed in [0, 2^63-1]";
          },
          "SEED"));
  cmd.add_option("--threads", a.threads, "LibTorch intra-op threads (recorded in metrics.json)")->capture_default_str();
  cmd.add_option("--out", a.out, "output folder (created)")->capture_default_str();
  cmd.add_option("--loss", a.loss, "l1, l2, ssim, ms-ssim or composite")->capture_default_str();
  cmd.add_option("--snr-db", a.snr_db, "detector noise SNR in dB (noise off when absent)");
  cmd.add_option("--settings", a.settings, "robust (default) or prism-compat")->capture_default_str();
  cmd.add_option("--activation", a.activation, "override the output activation: none, relu, sigmoid, softplus, abs");
  cmd.add_option("--init-target", a.init_target, "override the initialisation target: disc or first-measurement");
  cmd.add_option("--lr", a.lr, "Adam learning rate of the progressive phase (default: the preset's)");
  cmd.add_option("--init-lr", a.init_lr, "Adam learning rate of the initialisation phase (default: the preset's)");
  cmd.add_option("--isolated-lr", a.isolated_lr,
                 "learning rate of a sub-aperture that earlier ones overlap by less than " +
                     std::to_string(static_cast<int>(kOverlapped * 100.0 + 0.5)) +
                     " % of its area (--lr applies to the others); 0 turns this off (default: the preset's)");
  cmd.add_option("--keep-optimizer", a.keep_optimizer, "keep Adam's moments across samples: true or false (default: the preset's)");
  cmd.add_option("--loss-threshold", a.loss_threshold, "per-sample convergence threshold; 0 runs full budgets (default: the preset's)");
  cmd.add_option("--normalize-loss", a.normalize_loss, "normalise each row's L1/L2 by its target: true or false (default: the preset's)");
  cmd.add_option("--memory", a.memory,
                 "override what keeps earlier samples: previous-reconstruction (PRISM) or measured-data");
  cmd.add_option("--replayed-per-step", a.replayed_per_step,
                 "measured-data memory: earlier sub-apertures added to each step's loss");
  cmd.add_flag("--plateau-stop", a.plateau_stop, "also stop a sample on a persistent loss plateau");
  cmd.add_flag("--invert", a.invert, "invert the image file (255 - v) before preparation");
  cmd.add_option("--progress", a.progress, "auto (on a terminal, not in CI), on or off")->capture_default_str();
}

}  // namespace

std::string one_line(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += '?';
    else out += c;
  }
  return out;
}

ParseOutcome parse_recon_args(const std::vector<std::string>& argv) {
  ReconArgs args;
  CLI::App app{"recon: sparse-aperture (PRISM) reconstruction with a deep image prior, or the ePIE baseline"};
  app.name("recon");
  app.require_subcommand(1);
  auto* cmd = app.add_subcommand("reconstruct",
                                 "reconstruct a target from simulated sub-aperture measurements; writes PNGs and metrics.json");
  add_reconstruct_options(*cmd, args);

  std::vector<std::string> reversed(argv.rbegin(), argv.rend() - (argv.empty() ? 0 : 1));
  ParseOutcome outcome;
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    outcome.output = app.help("", CLI::AppFormatMode::All);
    return outcome;
  } catch (const CLI::CallForAllHelp&) {
    outcome.output = app.help("", CLI::AppFormatMode::All);
    return outcome;
  } catch (const CLI::ParseError& e) {
    outcome.exit_code = 2;
    outcome.output = one_line(std::string("recon: error: ") + e.what() + " (see recon --help)");
    return outcome;
  }
  for (const auto* option : cmd->get_options()) {
    if (option->count() > 0 && !option->get_lnames().empty()) args.given.insert("--" + option->get_lnames().front());
  }
  // With a scenario, the geometry is checked once the scenario has filled in what was not given (recon_main).
  const std::string problem = args.scenario.empty() ? validate(args) : std::string();
  if (!problem.empty()) {
    outcome.exit_code = 2;
    outcome.output = one_line("recon: error: " + problem);
    return outcome;
  }
  outcome.args = args;
  return outcome;
}

std::string validate(const ReconArgs& a) {
  std::ostringstream why;
  if (!is_power_of_two(a.grid) || a.grid < 8 || a.grid > 8192) {
    why << "--grid " << a.grid << ": must be a power of two in [8, 8192]";
  } else if (a.object < kMinObjectSize || a.object > a.grid) {
    why << "--object " << a.object << ": must be in [" << kMinObjectSize << ", grid " << a.grid << "] (SSIM's window needs " << kMinObjectSize
        << " pixels)";
  } else if (!std::isfinite(a.radius) || a.radius < kMinRadius || a.radius >= static_cast<double>(a.grid) / 2.0) {
    why << "--radius " << a.radius << ": must satisfy " << kMinRadius << " <= radius < grid/2 = " << a.grid / 2
        << " (a narrower pupil measures only the mean)";
  } else if (a.seed < 0) {
    why << "--seed " << a.seed << ": must be >= 0";
  } else if (a.samples < 1 || a.samples > 100000) {
    why << "--samples " << a.samples << ": must be in [1, 100000]";
  } else if (a.steps < 0 || a.init_steps < 0 || a.epochs < 0) {
    why << "step and epoch counts must be >= 0";
  } else if (a.threads < 1 || a.threads > 256) {
    why << "--threads " << a.threads << ": must be in [1, 256]";
  } else if (a.lr && (!std::isfinite(*a.lr) || *a.lr <= 0.0)) {
    why << "--lr " << *a.lr << ": must be a positive number";
  } else if (a.isolated_lr && (!std::isfinite(*a.isolated_lr) || *a.isolated_lr < 0.0)) {
    why << "--isolated-lr " << *a.isolated_lr << ": must be a number >= 0";
  } else if (a.init_lr && (!std::isfinite(*a.init_lr) || *a.init_lr <= 0.0)) {
    why << "--init-lr " << *a.init_lr << ": must be a positive number";
  } else if (a.loss_threshold && (!std::isfinite(*a.loss_threshold) || *a.loss_threshold < 0.0)) {
    why << "--loss-threshold " << *a.loss_threshold << ": must be >= 0";
  } else if (a.snr_db && !std::isfinite(*a.snr_db)) {
    why << "--snr-db: must be a finite number";
  } else if (kPatterns.count(a.pattern) == 0) {
    why << "--pattern " << a.pattern << ": expected " << join(kPatterns);
  } else if (kLosses.count(a.loss) == 0) {
    why << "--loss " << a.loss << ": expected " << join(kLosses);
  } else if (a.settings != "robust" && a.settings != "prism-compat") {
    why << "--settings " << a.settings << ": expected robust or prism-compat";
  } else if (!a.activation.empty() && kActivations.count(a.activation) == 0) {
    why << "--activation " << a.activation << ": expected " << join(kActivations);
  } else if (!a.init_target.empty() && a.init_target != "disc" && a.init_target != "first-measurement") {
    why << "--init-target " << a.init_target << ": expected disc or first-measurement";
  } else if (!a.memory.empty() && a.memory != "previous-reconstruction" && a.memory != "measured-data") {
    why << "--memory " << a.memory << ": expected previous-reconstruction or measured-data";
  } else if (a.replayed_per_step && (*a.replayed_per_step < 0 || *a.replayed_per_step > 1000000)) {
    why << "--replayed-per-step " << *a.replayed_per_step << ": must be in [0, 1000000]";
  } else if (a.pipeline != "reference" && a.pipeline != "optimized") {
    why << "--pipeline " << a.pipeline << ": expected reference or optimized";
  } else if (a.algorithm != "prism" && a.algorithm != "epie") {
    why << "--algorithm " << a.algorithm << ": expected prism or epie";
  } else if (a.progress != "auto" && a.progress != "on" && a.progress != "off") {
    why << "--progress " << a.progress << ": expected auto, on or off";
  } else if (a.out.empty()) {
    why << "--out: must not be empty";
  } else if (kBuiltinTargets.count(a.target) == 0) {
    if (!has_image_extension(a.target)) {
      why << "--target " << a.target << ": not a built-in target (" << join(kBuiltinTargets) << ") nor a .png/.jpg path";
    } else if (std::error_code e; !std::filesystem::is_regular_file(a.target, e)) {  // a FIFO would block, a device never end
      why << "--target " << a.target << ": cannot open the image file (no such regular file)";
    } else if (!std::ifstream(a.target).good()) {
      why << "--target " << a.target << ": cannot open the image file";
    }
  }
  if (why.tellp() == 0) {
    for (const auto& s : a.disable) {
      if (switch_names().count(s) == 0) {
        why << "--disable " << s << ": unknown switch (expected " << join(switch_names()) << ")";
        break;
      }
    }
  }
  return why.str();
}

}  // namespace recon::cli
