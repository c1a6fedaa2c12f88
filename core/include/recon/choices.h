#pragma once
/// Every enumerated choice a user names (on the command line, in metrics.json, in a suite), each enum with its names
/// written once, in one table beside it. parse_choice, to_string, the CLI's accepted values and its error messages are
/// all read from these tables. Plain C++ without LibTorch, so that the CLI's argument parser and its fuzzer share them
/// with the core (the optimisation switches have their own table: recon/optimization_switches.h).
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace recon {

/// Where the sub-aperture centres go (sample_centers, recon/sampling.h).
enum class PatternKind {
  fermat,    ///< golden-angle spiral, exactly PRISM's formula (first centre at DC, sorted by radius)
  random,    ///< uniform in the disc of radius r_max, seeded, one centre forced to DC, sorted by radius
  rings,     ///< DC, then concentric rings with point counts proportional to the ring radius
  jittered,  ///< square grid inside the disc with seeded ±10 % Gaussian jitter, sorted by radius
  star,      ///< DC, then points along equally spaced radial arms, innermost first
};

/// The row loss between a predicted and a measured amplitude (recon/losses.h).
enum class LossKind {
  l1,         ///< mean |p − t|, normalised by mean |t| (PRISM's default)
  l2,         ///< mean (p − t)², normalised by mean t²
  ssim,       ///< (1 − SSIM(p, t)) / 2, data range 1
  ms_ssim,    ///< (1 − MS-SSIM(p, t)) / 2
  composite,  ///< weight_l1 · mean|p − t| + weight_ssim · (1 − SSIM)/2, unnormalised (PRISM's composite)
};

/// The built-in synthetic objects (recon/targets.h).
enum class TargetKind {
  usaf,    ///< USAF-1951-style bar target: groups of three bars, horizontal and vertical, shrinking by 2^(1/6)
  star,    ///< Siemens star with 36 spokes
  planet,  ///< limb-darkened disc with latitude bands and craters
  points,  ///< a few point-like sources of different brightness
  disc,    ///< uniform disc of radius S/2 (the initialisation target's shape)
};

/// The decoder's last activation, applied to its last convolution's output (recon/decoder.h). PRISM's runner uses
/// `none`; a non-negative activation removes the sign ambiguity of a modulus measurement (x and −x measure the same).
enum class OutputActivation { none, relu, sigmoid, softplus, abs };

/// Which implementation of the same mathematics runs (recon/pipeline.h).
enum class PipelineKind {
  reference,  ///< PRISM's computation: two full centred spectra, masks and normalisers rebuilt every step
  optimized,  ///< the same mathematics with the optimisation switches
};

/// Where a pipeline's tensors live and its operations run (recon/pipeline.h).
enum class ComputeDevice {
  cpu,   ///< LibTorch's CPU operations (and the optimized pipeline's own CPU kernels)
  cuda,  ///< LibTorch's CUDA operations on the current device: cuDNN, cuBLAS, and cuFFT for every FFT
};

/// Named settings presets (recon/settings.h).
enum class SettingsPreset {
  robust,        ///< default: choices that make the result stable across seeds (see apply_preset)
  prism_compat,  ///< PRISM's runner: no output activation, everything else as in the reference
};

/// What the initialisation phase pulls the output toward (image space, no physics; recon/trainer.h).
enum class InitTarget {
  disc,               ///< PRISM's default: the binary disc of radius S/2
  first_measurement,  ///< the (noisy) amplitude measured through the first sub-aperture, min–max normalised:
                      ///< a low-pass image of the object that every seed starts from
};

/// What keeps a sample's fit from undoing the samples before it (recon/trainer.h).
enum class SampleMemory {
  previous_reconstruction,  ///< PRISM: an "old" row fits the previous reconstruction seen through the union of the
                            ///< measured pupils (self-consistency; no measured data of earlier samples enters)
  measured_data,            ///< every step's loss adds, to the new sub-aperture's row, the rows of earlier
                            ///< sub-apertures (their own measurements, round robin): every measurement keeps acting
};

/// The classical solver's update rule (recon/epie.h).
enum class PieVariant {
  epie,  ///< ePIE: the spectrum moves by α P*(ψ' − ψ) / max|P|²
  rpie,  ///< rPIE (Maiden, Johnson and Li, Optica 4:736, 2017): β P*(ψ' − ψ) / ((1 − a)|P|² + a max|P|²)
  mpie,  ///< mPIE (same paper): rPIE's update, with momentum on the object every few updates
};

/// The names table of an enum: `what` names the choice in messages, `table` pairs each value with its name.
template <typename E>
struct Choices;

template <typename E>
using ChoiceEntry = std::pair<E, const char*>;

template <>
struct Choices<PatternKind> {
  static constexpr const char* what = "pattern";
  static constexpr ChoiceEntry<PatternKind> table[] = {{PatternKind::fermat, "fermat"},
                                                       {PatternKind::random, "random"},
                                                       {PatternKind::rings, "rings"},
                                                       {PatternKind::jittered, "jittered"},
                                                       {PatternKind::star, "star"}};
};

template <>
struct Choices<LossKind> {
  static constexpr const char* what = "loss";
  static constexpr ChoiceEntry<LossKind> table[] = {{LossKind::l1, "l1"},
                                                    {LossKind::l2, "l2"},
                                                    {LossKind::ssim, "ssim"},
                                                    {LossKind::ms_ssim, "ms-ssim"},
                                                    {LossKind::composite, "composite"}};
};

template <>
struct Choices<TargetKind> {
  static constexpr const char* what = "target";
  static constexpr ChoiceEntry<TargetKind> table[] = {{TargetKind::usaf, "usaf"},
                                                      {TargetKind::star, "star"},
                                                      {TargetKind::planet, "planet"},
                                                      {TargetKind::points, "points"},
                                                      {TargetKind::disc, "disc"}};
};

template <>
struct Choices<OutputActivation> {
  static constexpr const char* what = "output activation";
  static constexpr ChoiceEntry<OutputActivation> table[] = {{OutputActivation::none, "none"},
                                                            {OutputActivation::relu, "relu"},
                                                            {OutputActivation::sigmoid, "sigmoid"},
                                                            {OutputActivation::softplus, "softplus"},
                                                            {OutputActivation::abs, "abs"}};
};

template <>
struct Choices<PipelineKind> {
  static constexpr const char* what = "pipeline";
  static constexpr ChoiceEntry<PipelineKind> table[] = {{PipelineKind::reference, "reference"},
                                                        {PipelineKind::optimized, "optimized"}};
};

template <>
struct Choices<ComputeDevice> {
  static constexpr const char* what = "device";
  static constexpr ChoiceEntry<ComputeDevice> table[] = {{ComputeDevice::cpu, "cpu"}, {ComputeDevice::cuda, "cuda"}};
};

template <>
struct Choices<SettingsPreset> {
  static constexpr const char* what = "settings preset";
  static constexpr ChoiceEntry<SettingsPreset> table[] = {{SettingsPreset::robust, "robust"},
                                                          {SettingsPreset::prism_compat, "prism-compat"}};
};

template <>
struct Choices<InitTarget> {
  static constexpr const char* what = "init target";
  static constexpr ChoiceEntry<InitTarget> table[] = {{InitTarget::disc, "disc"},
                                                      {InitTarget::first_measurement, "first-measurement"}};
};

template <>
struct Choices<SampleMemory> {
  static constexpr const char* what = "sample memory";
  static constexpr ChoiceEntry<SampleMemory> table[] = {{SampleMemory::previous_reconstruction, "previous-reconstruction"},
                                                        {SampleMemory::measured_data, "measured-data"}};
};

template <>
struct Choices<PieVariant> {
  static constexpr const char* what = "classical solver";
  static constexpr ChoiceEntry<PieVariant> table[] = {{PieVariant::epie, "epie"}, {PieVariant::rpie, "rpie"}, {PieVariant::mpie, "mpie"}};
};

namespace detail {
/// True when `given` spells `name`, an underscore standing for a hyphen (the C++ member's spelling is accepted).
inline bool spells(std::string_view given, std::string_view name) {
  if (given.size() != name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (given[i] != name[i] && !(given[i] == '_' && name[i] == '-')) return false;
  }
  return true;
}
}  // namespace detail

/// The value named `name` (its table's name, or that name with '_' for '-'), or nothing.
template <typename E>
std::optional<E> find_choice(std::string_view name) {
  for (const auto& [value, spelled] : Choices<E>::table) {
    if (detail::spells(name, spelled)) return value;
  }
  return std::nullopt;
}

/// The names in table order.
template <typename E>
std::vector<std::string> choice_names() {
  std::vector<std::string> names;
  for (const auto& entry : Choices<E>::table) names.emplace_back(entry.second);
  return names;
}

/// The names as a message lists them: "a, b or c".
template <typename E>
std::string expected_choices() {
  const auto names = choice_names<E>();
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

/// The value named `name`; throws std::invalid_argument "unknown <what> '<name>' (expected …)" otherwise.
template <typename E>
E parse_choice(const std::string& name) {
  if (auto value = find_choice<E>(name)) return *value;
  throw std::invalid_argument("unknown " + std::string(Choices<E>::what) + " '" + name + "' (expected " + expected_choices<E>() + ")");
}

/// The name of `value` (every enumerator has a table entry: choices_test checks each table is complete).
template <typename E, typename = decltype(Choices<E>::table)>
std::string to_string(E value) {
  for (const auto& [candidate, spelled] : Choices<E>::table) {
    if (candidate == value) return spelled;
  }
  return "?";
}

}  // namespace recon
