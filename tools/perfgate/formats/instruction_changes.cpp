#include "formats/instruction_changes.h"

#include "base/error.h"

#include <cmath>

namespace perfgate {
namespace {

// Moved by at least the kept profiles' resolution: a few instructions more or fewer (another path to the program,
// another environment) are not the code's doing, and the profiles could not say where they went.
bool changed(const Row& r) {
  return std::fabs(r.value - r.baseline) >= kProfileResolution * std::fabs(r.baseline) && r.value != r.baseline;
}

}  // namespace

bool profile_is_of(const FunctionProfile& profile, double count) {
  return std::fabs(static_cast<double>(profile.total) - count) <= 1e-3 * std::fabs(count);
}

InstructionChanges instruction_changes(const std::vector<Row>& rows, const RegionProfiles& results_profiles,
                                       const RegionProfiles& baseline_profiles, size_t top) {
  InstructionChanges out;
  if (results_profiles.empty() && baseline_profiles.empty()) return out;
  for (const auto& r : rows) {
    if (r.field != "instructions" || r.verdict == Verdict::missing || r.verdict == Verdict::unbaselined || !changed(r))
      continue;
    const auto after = results_profiles.find(r.benchmark);
    const auto before = baseline_profiles.find(r.benchmark);
    if (before == baseline_profiles.end() || after == results_profiles.end()) {
      out.notes.push_back(
          {r.benchmark, std::string("no function profile of it beside the ") +
                            (before == baseline_profiles.end() ? "baseline" : "results") +
                            ", so no differential (perfgate update keeps the results' profile with the baseline)"});
      continue;
    }
    if (!profile_is_of(before->second, r.baseline)) {
      out.notes.push_back(
          {r.benchmark,
           "the baseline's function profile (" + std::to_string(before->second.total) +
               " instructions) is not of the baselined count; re-record the baseline to keep a matching one"});
      continue;
    }
    if (!profile_is_of(after->second, r.value)) {
      out.notes.push_back({r.benchmark, "the results' function profile (" + std::to_string(after->second.total) +
                                            " instructions) is not of the measured count"});
      continue;
    }
    out.benchmarks.push_back(
        {r.benchmark, before->second, after->second, profile_changes(before->second, after->second, top)});
  }
  return out;
}

InstructionChanges instruction_changes(const std::vector<Row>& rows, const std::string& results_path,
                                       const std::string& baseline_path) {
  std::vector<const Row*> moved;
  for (const auto& r : rows) {
    if (r.field == "instructions" && r.verdict != Verdict::missing && r.verdict != Verdict::unbaselined && changed(r))
      moved.push_back(&r);
  }
  if (moved.empty()) return {};  // nothing to explain: no profile is read
  // A profile only explains a verdict: one that cannot be read is a note beside the verdict, never a failure of it.
  RegionProfiles results_profiles, baseline_profiles;
  std::string unreadable;
  try {
    results_profiles = read_function_profiles_if_any(function_profile_path(results_path));
    baseline_profiles = read_function_profiles_if_any(function_profile_path(baseline_path));
  } catch (const InputError& e) {
    unreadable = e.what();
  }
  if (!unreadable.empty()) {
    InstructionChanges out;
    for (const auto* r : moved) out.notes.push_back({r->benchmark, "no differential: " + unreadable});
    return out;
  }
  return instruction_changes(rows, results_profiles, baseline_profiles);
}

}  // namespace perfgate
