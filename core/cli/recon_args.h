#pragma once
// The recon command's arguments: parsing (CLI11) and validation, kept free of LibTorch so that they can be
// fuzzed and tested without running anything. Every option is parsed into its type once, here, and every value and
// combination is checked in one place, validate(); what runs reads the types.
#include "recon/choices.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace recon::cli {

struct ReconArgs {
  std::string scenario;         // a built-in scene (recon/scenarios.h): its geometry and budgets unless given here
  std::set<std::string> given;  // the options given on the command line (long names), so a scenario fills the rest
  bool compare_epie = false;    // also run ePIE on the same measurements and report its quality beside the deep prior's
  std::string target = recon::to_string(recon::TargetKind::usaf);  // built-in name or an image path (.png, .jpg, .jpeg)
  int64_t grid = 512;
  int64_t object = 128;
  double radius = 20.0;
  recon::PatternKind pattern = recon::PatternKind::fermat;
  int64_t samples = 20;
  int64_t steps = 50;
  int64_t init_steps = 100;
  recon::PipelineKind pipeline = recon::PipelineKind::optimized;
  std::vector<std::string> disable;  // optimisation switches turned off (ablation)
  recon::ComputeDevice device = recon::ComputeDevice::cpu;  // where the deep prior's training runs
  std::optional<recon::PieVariant> algorithm;  // a classical solver; none: prism, the deep prior
  int64_t epochs = 100;              // classical solvers (and --compare-epie) only
  int64_t refine_epochs = 0;         // prism only: ePIE epochs refining the deep prior's reconstruction (0: none)
  int64_t seed = 0;                  // >= 0 (a negative seed is refused, not wrapped)
  int64_t threads = 1;
  std::string out = "recon-out";
  recon::LossKind loss = recon::LossKind::l1;
  std::optional<double> overlap;     // a neighbour overlap to choose --samples by (recon_main resolves it)
  std::optional<double> snr_db;      // noise off unless given
  std::optional<double> photons;     // photon-counting noise: counts expected at the object's brightest pixel
  std::optional<double> read_noise;  // photon counting: read-noise SD in counts (0 unless given)
  recon::SettingsPreset settings = recon::SettingsPreset::robust;
  std::optional<recon::OutputActivation> activation;  // overrides the preset's output activation when set
  std::optional<recon::InitTarget> init_target;       // overrides the preset's initialisation target when set
  std::optional<double> lr;          // override the preset's learning rates when set
  std::optional<double> init_lr;
  std::optional<double> isolated_lr;  // learning rate of a sub-aperture no earlier one overlaps (0: --lr always)
  std::optional<bool> keep_optimizer;  // keep Adam's moments across samples
  std::optional<double> loss_threshold;  // override the preset's convergence threshold when set
  bool plateau_stop = false;
  std::vector<double> fit_plateau;   // window, min fall: a sample's measurement-only stop when given (off otherwise)
  std::optional<recon::SampleMemory> memory;  // overrides the preset's sample memory when set
  std::optional<double> output_average;  // overrides the preset's decay of the averaged reconstruction (0: last output)
  std::optional<int64_t> init_candidates;  // overrides the preset's multi-start initialisation (1: one draw)
  std::vector<int64_t> candidate_screen;  // survivors, init steps, trial steps: overrides the preset's screen when given
  std::optional<int64_t> replayed_per_step;  // overrides the preset's earlier sub-apertures per step (measured-data memory)
  std::optional<bool> normalize_loss;  // divide each row's L1/L2 by its target's (default: the preset's)
  bool invert = false;
  std::string progress = "auto";     // auto | on | off
};

/// Result of parsing: either arguments to run, or an exit code with text for stdout (help) or stderr (error).
struct ParseOutcome {
  std::optional<ReconArgs> args;
  int exit_code = 0;
  std::string output;  // help text (exit 0) or one error line (exit 2)
};

/// `text` safe for one error line: a line break becomes \n, other control characters '?'. Every error recon
/// prints passes through it (arguments, file names and LibTorch's multi-line messages alike).
std::string one_line(const std::string& text);

/// "prism" or the classical solver's name: what --algorithm was given as, and metrics.json records.
std::string algorithm_name(const ReconArgs& args);

/// Parses `recon reconstruct [options]` (argv[0] is the program): every choice straight into its type (an unknown name
/// is refused with the names its table accepts), then validate(). Never throws, never exits.
ParseOutcome parse_recon_args(const std::vector<std::string>& argv);

/// Checks values and their combinations; returns an empty string when valid, else one line naming the option,
/// the value and the rule. Does not touch the file system except to check that an image path is readable.
std::string validate(const ReconArgs& args);

}  // namespace recon::cli
