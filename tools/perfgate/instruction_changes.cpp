#include "instruction_changes.h"

#include <cmath>

namespace perfgate {
namespace {

bool changed(const Row& r) {
  if (r.value_integer && r.baseline_integer) return *r.value_integer != *r.baseline_integer;
  return r.value != r.baseline;
}

// Is the profile of the count judged? Within 0.1 % of it: a count is exact for an identical invocation, but another
// path to the same program (or another environment) moves it by a few instructions, and a median of an even number of
// differing steps is not the count of any one step (the profile is then of the lower middle step).
bool adds_up(const FunctionProfile& p, double value) {
  return std::fabs(static_cast<double>(p.total) - value) <= 1e-3 * std::fabs(value);
}

}  // namespace

InstructionChanges instruction_changes(const std::vector<Row>& rows, const RegionProfiles& results_profiles,
                                       const RegionProfiles& baseline_profiles, size_t top) {
  InstructionChanges out;
  if (results_profiles.empty() && baseline_profiles.empty()) return out;
  for (const auto& r : rows) {
    if (r.field != "instructions" || r.verdict == Verdict::missing || r.verdict == Verdict::unbaselined || !changed(r)) continue;
    const auto after = results_profiles.find(r.benchmark);
    const auto before = baseline_profiles.find(r.benchmark);
    if (before == baseline_profiles.end() || after == results_profiles.end()) {
      out.notes.push_back({r.benchmark, std::string("no function profile of it beside the ") + (before == baseline_profiles.end() ? "baseline" : "results") +
                                            ", so no differential (perfgate update keeps the results' profile with the baseline)"});
      continue;
    }
    if (!adds_up(before->second, r.baseline)) {
      out.notes.push_back({r.benchmark, "the baseline's function profile (" + std::to_string(before->second.total) +
                                            " instructions) is not of the baselined count; re-record the baseline to keep a matching one"});
      continue;
    }
    if (!adds_up(after->second, r.value)) {
      out.notes.push_back({r.benchmark, "the results' function profile (" + std::to_string(after->second.total) + " instructions) is not of the measured count"});
      continue;
    }
    out.benchmarks.push_back({r.benchmark, before->second, after->second, profile_changes(before->second, after->second, top)});
  }
  return out;
}

InstructionChanges instruction_changes(const std::vector<Row>& rows, const std::string& results_path, const std::string& baseline_path) {
  return instruction_changes(rows, read_function_profiles_if_any(function_profile_path(results_path)),
                             read_function_profiles_if_any(function_profile_path(baseline_path)));
}

}  // namespace perfgate
