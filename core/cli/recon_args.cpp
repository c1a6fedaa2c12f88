#include "recon_args.h"

#include "recon/choices.h"
#include "recon/limits.h"
#include "recon/optimization_switches.h"
#include "recon/preset_candidates.h"
#include "recon/sample_overlap.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>

#include <unistd.h>

namespace recon::cli {
namespace {

// The optimisation switches' names come from their table (recon/optimization_switches.h).
std::set<std::string> switch_names() {
  const auto& names = recon::OptimizationSwitches::names();
  return {names.begin(), names.end()};
}

// Every other choice's names come from its table (recon/choices.h). The command line takes them as the table spells
// them (the core's parser also takes '_' for '-'), so that metrics.json records the name a user can look up.
template <typename E>
bool names_choice(const std::string& value) {
  const auto names = recon::choice_names<E>();
  return std::find(names.begin(), names.end(), value) != names.end();
}

// An option whose value is one of E's names, parsed into E as it is read; an unknown name is refused with the names
// E's table accepts. `field` shows as the default in the help.
template <typename E, typename Field>
CLI::Option* add_choice(CLI::App& cmd, const std::string& name, Field& field, const std::string& description) {
  auto* option = cmd.add_option_function<std::string>(
      name,
      [name, &field](const std::string& value) {
        const auto choice = names_choice<E>(value) ? recon::find_choice<E>(value) : std::nullopt;
        if (!choice) throw CLI::ValidationError(name + " " + value + ": expected " + recon::expected_choices<E>());
        field = *choice;
      },
      description);
  if constexpr (std::is_same_v<Field, E>) option->default_str(recon::to_string(field));
  return option;
}

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
  cmd.add_option("--target", a.target, recon::expected_choices<recon::TargetKind>() + ", or a PNG/JPEG image path")->capture_default_str();
  cmd.add_option("--grid", a.grid, "grid size N (power of two)")->capture_default_str();
  cmd.add_option("--object", a.object, "object size S in pixels (6 <= S <= N)")->capture_default_str();
  cmd.add_option("--radius", a.radius, "sub-aperture radius in k-space pixels, 1 <= r <= N")->capture_default_str();
  add_choice<recon::PatternKind>(cmd, "--pattern", a.pattern, recon::expected_choices<recon::PatternKind>());
  cmd.add_option("--samples", a.samples, "number of sub-aperture samples (>= 1)")->capture_default_str();
  cmd.add_option("--overlap", a.overlap,
                 "instead of --samples: the sample count whose discs overlap their nearest neighbour by about this "
                 "fraction on average (linear overlap 1 - d/2r, in [0, 0.9]; 0: the most discs of which no two touch)");
  cmd.add_option("--steps", a.steps, "gradient steps per sample")->capture_default_str();
  cmd.add_option("--init-steps", a.init_steps, "initialisation steps")->capture_default_str();
  add_choice<recon::PipelineKind>(cmd, "--pipeline", a.pipeline, recon::expected_choices<recon::PipelineKind>());
  cmd.add_option("--disable", a.disable, "optimisation switches to turn off (optimized pipeline; the switches that need one go off with it): " + join(switch_names()));
  add_choice<recon::ComputeDevice>(
      cmd, "--device", a.device,
      recon::expected_choices<recon::ComputeDevice>() + ": where the deep prior trains (cuda: either pipeline, the deep prior only)");
  cmd.add_option_function<std::string>(
         "--algorithm",
         [&a](const std::string& value) {
           if (value == "prism") {
             a.algorithm.reset();
           } else if (names_choice<recon::PieVariant>(value)) {
             a.algorithm = recon::find_choice<recon::PieVariant>(value);
           } else {
             throw CLI::ValidationError("--algorithm " + value + ": expected prism, " + recon::expected_choices<recon::PieVariant>());
           }
         },
         "prism (deep-prior trainer), or a classical solver with its published defaults: " +
             recon::expected_choices<recon::PieVariant>())
      ->default_str("prism");
  cmd.add_option("--epochs", a.epochs, "classical solvers (and --compare-epie) only: passes over all samples")->capture_default_str();
  cmd.add_option("--refine-epochs", a.refine_epochs,
                 "prism only: refine the deep prior's reconstruction by this many ePIE epochs on the same measurements; "
                 "the refined picture is the output (0: no refinement)")
      ->capture_default_str();
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
  add_choice<recon::LossKind>(cmd, "--loss", a.loss, recon::expected_choices<recon::LossKind>());
  cmd.add_option("--snr-db", a.snr_db, "detector noise SNR in dB (noise off when absent)");
  cmd.add_option("--photons", a.photons,
                 "photon-counting noise instead: Poisson counts, this many expected at a pixel as bright as the object's "
                 "brightest (noise off when absent)");
  cmd.add_option("--read-noise", a.read_noise, "with --photons: Gaussian read noise, SD in counts (default 0)");
  add_choice<recon::SettingsPreset>(cmd, "--settings", a.settings, recon::expected_choices<recon::SettingsPreset>());
  add_choice<recon::OutputActivation>(cmd, "--activation", a.activation,
                                      "override the output activation: " + recon::expected_choices<recon::OutputActivation>());
  add_choice<recon::InitTarget>(cmd, "--init-target", a.init_target,
                                "override the initialisation target: " + recon::expected_choices<recon::InitTarget>());
  cmd.add_option("--lr", a.lr, "Adam learning rate of the progressive phase (default: the preset's)");
  cmd.add_option("--init-lr", a.init_lr, "Adam learning rate of the initialisation phase (default: the preset's)");
  cmd.add_option("--isolated-lr", a.isolated_lr,
                 "learning rate of a sub-aperture that earlier ones overlap by less than " +
                     std::to_string(static_cast<int>(kOverlapped * 100.0 + 0.5)) +
                     " % of its area (--lr applies to the others); 0 turns this off (default: the preset's)");
  cmd.add_option("--keep-optimizer", a.keep_optimizer, "keep Adam's moments across samples: true or false (default: the preset's)");
  cmd.add_option("--loss-threshold", a.loss_threshold, "per-sample convergence threshold; 0 runs full budgets (default: the preset's)");
  cmd.add_option("--normalize-loss", a.normalize_loss, "normalise each row's L1/L2 by its target: true or false (default: the preset's)");
  add_choice<recon::SampleMemory>(cmd, "--memory", a.memory, "override what keeps earlier samples: " + recon::expected_choices<recon::SampleMemory>());
  cmd.add_option("--replayed-per-step", a.replayed_per_step,
                 "measured-data memory: earlier sub-apertures added to each step's loss");
  cmd.add_option("--output-average", a.output_average,
                 "report the exponential average of the decoder's outputs over the steps, with this decay per step in "
                 "[0, 1); 0 reports the last output (default: the preset's)");
  cmd.add_option("--init-candidates", a.init_candidates,
                 "initialise this many decoder weight draws and go on from the one that fits the first measurement "
                 "best; 1 uses the seed's own draw (default: the preset's)");
  cmd.add_option("--candidate-screen", a.candidate_screen,
                 "SURVIVORS,INIT,TRIAL: screen the initialisation's candidates with INIT initialisation steps and a TRIAL-update "
                 "trial each; the SURVIVORS lowest take the full initialisation and trial (default: no screen, 0,0,0)")
      ->expected(3)
      ->delimiter(',');
  cmd.add_flag("--plateau-stop", a.plateau_stop, "also stop a sample on a persistent loss plateau");
  cmd.add_option("--fit-plateau", a.fit_plateau,
                 "WINDOW,FALL: end a sample once the best fit of its own measurement fell by less than the fraction FALL "
                 "over its last WINDOW updates; reads the measurements only (default: off, every sample runs its steps)")
      ->expected(2)
      ->delimiter(',');
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

std::string algorithm_name(const ReconArgs& args) { return args.algorithm ? recon::to_string(*args.algorithm) : "prism"; }

ParseOutcome parse_recon_args(const std::vector<std::string>& argv) {
  ReconArgs args;
  CLI::App app{"recon: sparse-aperture (PRISM) reconstruction with a deep image prior, or a classical solver (ePIE, rPIE, mPIE)"};
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

namespace {
// The memory a run may use: the machine's, or a container's cgroup (v2) limit when that is smaller. 0 when unknown.
double usable_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  double bytes = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");  // "max" when unlimited
  double limit = 0.0;
  if (cgroup >> limit && limit > 0.0 && (bytes == 0.0 || limit < bytes)) bytes = limit;
  return bytes;
}
}  // namespace

std::string validate(const ReconArgs& a) {
  std::ostringstream why;
  const int64_t candidates = a.init_candidates.value_or(recon::preset_init_candidates(a.settings));
  const double memory = usable_memory_bytes();
  const double needed = kBytesPerSamplePixel * static_cast<double>(a.samples) * static_cast<double>(a.grid) * static_cast<double>(a.grid);
  if (const auto grid = grid_refusal(a.grid); !grid.empty()) {
    why << "--grid " << grid;
  } else if (const auto object = object_size_refusal(a.object, a.grid); !object.empty()) {
    why << "--object " << object;
  } else if (const auto radius = radius_refusal(a.radius, a.grid); !radius.empty()) {
    why << "--radius " << radius;
  } else if (a.seed < 0) {
    why << "--seed " << a.seed << ": must be >= 0";
  } else if (a.samples < 1 || a.samples > 100000) {
    why << "--samples " << a.samples << ": must be in [1, 100000]";
  } else if (memory > 0.0 && needed > memory) {
    why << "--samples " << a.samples << " at --grid " << a.grid << ": the measurements alone would take about "
        << std::llround(needed / 1e9) << " GB, more than the " << std::llround(memory / 1e9) << " GB this machine (or container) allows";
  } else if (a.steps < 0 || a.init_steps < 0 || a.epochs < 0) {
    why << "step and epoch counts must be >= 0";
  } else if (a.refine_epochs < 0 || a.refine_epochs > 1000000) {
    why << "--refine-epochs " << a.refine_epochs << ": must be in [0, 1000000]";
  } else if (a.refine_epochs > 0 && a.algorithm) {
    why << "--refine-epochs refines the deep prior's reconstruction: it needs --algorithm prism, not " << algorithm_name(a);
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
  } else if (a.overlap && !(*a.overlap >= 0.0 && *a.overlap <= 0.9)) {
    why << "--overlap " << *a.overlap << ": must be in [0, 0.9]";
  } else if (a.overlap && a.given.count("--samples") > 0) {
    why << "--overlap chooses the sample count: give it or --samples, not both";
  } else if (a.snr_db && !std::isfinite(*a.snr_db)) {
    why << "--snr-db: must be a finite number";
  } else if (a.snr_db && a.photons) {
    why << "--snr-db and --photons are two noise models: give one";
  } else if (a.photons && !(*a.photons >= 1e-3 && *a.photons <= 1e15)) {
    why << "--photons " << *a.photons << ": must be in [0.001, 1e15]";
  } else if (a.read_noise && !a.photons) {
    why << "--read-noise is the photon counter's: it needs --photons";
  } else if (a.read_noise && !(*a.read_noise >= 0.0 && *a.read_noise <= 1e15)) {
    why << "--read-noise " << *a.read_noise << ": must be in [0, 1e15]";
  } else if (a.replayed_per_step && (*a.replayed_per_step < 0 || *a.replayed_per_step > 1000000)) {
    why << "--replayed-per-step " << *a.replayed_per_step << ": must be in [0, 1000000]";
  } else if (a.output_average && !(*a.output_average >= 0.0 && *a.output_average < 1.0)) {
    why << "--output-average " << *a.output_average << ": must be in [0, 1)";
  } else if (a.init_candidates && (*a.init_candidates < 1 || *a.init_candidates > 1000)) {
    why << "--init-candidates " << *a.init_candidates << ": must be in [1, 1000]";
  } else if (!a.candidate_screen.empty() && (a.candidate_screen.size() != 3 || a.candidate_screen[0] < 0 || a.candidate_screen[0] > 1000 ||
                                             a.candidate_screen[1] < 0 || a.candidate_screen[1] > 1000000 ||
                                             a.candidate_screen[2] < 0 || a.candidate_screen[2] > 1000000)) {
    why << "--candidate-screen";
    for (size_t i = 0; i < a.candidate_screen.size(); ++i) why << (i == 0 ? " " : ",") << a.candidate_screen[i];
    why << ": expected SURVIVORS,INIT,TRIAL with SURVIVORS in [0, 1000] and step counts in [0, 1000000]";
  } else if (!a.candidate_screen.empty() && a.candidate_screen[0] > 0 && candidates < 2) {
    why << "--candidate-screen screens the candidates of a multi-start initialisation: it needs --init-candidates of 2 or "
           "more (this run has "
        << candidates << ")";
  } else if (!a.candidate_screen.empty() && a.candidate_screen[0] > candidates) {
    why << "--candidate-screen " << a.candidate_screen[0] << ",...: at most the " << candidates << " candidates can survive";
  } else if (!a.fit_plateau.empty() && (a.fit_plateau.size() != 2 || !(a.fit_plateau[0] >= 1.0 && a.fit_plateau[0] <= 1000000.0) ||
                                        a.fit_plateau[0] != std::floor(a.fit_plateau[0]) ||
                                        !(a.fit_plateau[1] > 0.0 && a.fit_plateau[1] <= 1.0))) {
    why << "--fit-plateau";
    for (size_t i = 0; i < a.fit_plateau.size(); ++i) why << (i == 0 ? " " : ",") << a.fit_plateau[i];
    why << ": expected WINDOW,FALL with WINDOW an integer in [1, 1000000] and FALL in (0, 1]";
  } else if (!a.fit_plateau.empty() && a.algorithm) {
    why << "--fit-plateau stops the deep prior's samples: it needs --algorithm prism, not " << algorithm_name(a);
  } else if (!a.fit_plateau.empty() && a.fit_plateau[0] >= static_cast<double>(a.steps)) {
    why << "--fit-plateau " << a.fit_plateau[0] << ",...: a window of " << a.fit_plateau[0]
        << " updates never closes in a sample of --steps " << a.steps << " (give a window below it)";
  } else if (a.device == recon::ComputeDevice::cuda && a.algorithm) {
    why << "--device cuda trains the deep prior only: give --algorithm prism (ePIE and its variants run on the CPU)";
  } else if (a.progress != "auto" && a.progress != "on" && a.progress != "off") {
    why << "--progress " << a.progress << ": expected auto, on or off";
  } else if (a.out.empty()) {
    why << "--out: must not be empty";
  } else if (!names_choice<recon::TargetKind>(a.target)) {
    if (!has_image_extension(a.target)) {
      why << "--target " << a.target << ": not a built-in target (" << recon::expected_choices<recon::TargetKind>() << ") nor a .png/.jpg path";
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
