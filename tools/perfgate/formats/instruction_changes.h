#pragma once
// Which functions moved a judged instruction count: the rows of a results-against-baseline comparison whose
// instructions changed, each with the differential of the function profiles kept beside the results and the baseline
// (function_profile_file.h). compare prints them; the report and verdicts.json show them.
#include "formats/function_profile_file.h"
#include "model/compare.h"
#include "model/function_changes.h"

#include <string>
#include <vector>

namespace perfgate {

struct BenchmarkFunctionChanges {
  std::string benchmark;
  FunctionProfile before, after;  ///< the baseline's and the results' profiles of its step (the flame graph draws them)
  ProfileChanges changes;
};

struct InstructionChanges {
  std::vector<BenchmarkFunctionChanges> benchmarks;
  /// Why a changed count has no differential: a side keeps no profile of it, or a kept profile is not of the count
  /// judged (a baseline re-recorded without its profile).
  struct Note {
    std::string benchmark, text;
  };
  std::vector<Note> notes;
};

/// For every row of field "instructions" whose value moved from its baseline by at least kProfileResolution of it (pass
/// or fail): the differential of the two profiles, when both are kept and each adds up to its side's count.
InstructionChanges instruction_changes(const std::vector<Row>& rows, const RegionProfiles& results_profiles,
                                       const RegionProfiles& baseline_profiles, size_t top = 8);

/// Whether `profile` is of a step of `count` instructions: within 0.1 % of it. A count is exact for an identical
/// invocation, but another path to the same program (or another environment) moves it by a few instructions, and a
/// median of an even number of differing steps is the count of no one step (a profile is then the lower middle step's).
bool profile_is_of(const FunctionProfile& profile, double count);

/// The same, reading the profiles kept beside `results_path` and `baseline_path` (none when neither keeps any), only
/// when a count moved. A profile that cannot be read gives each moved count a note saying why, never an error: it only
/// explains a verdict.
InstructionChanges instruction_changes(const std::vector<Row>& rows, const std::string& results_path,
                                       const std::string& baseline_path);

}  // namespace perfgate
