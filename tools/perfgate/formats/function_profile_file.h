#pragma once
// Function profiles kept beside a results file or a baseline (<stem>.functions.tsv next to <stem>.json), so that a
// later run whose instruction counts moved can say which functions moved them. Text, one record per line, so that a
// committed profile diffs line by line; function names (long, in C++) are written once and then referred to by number:
//   perfgate function profile 1
//   event <TAB> Ir
//   name <TAB> ID <TAB> FUNCTION                          every function named below, before its first use
//   region <TAB> TOTAL <TAB> NAME                         one measured step of the region (benchmark) NAME
//   fn <TAB> SELF <TAB> INCLUSIVE <TAB> ID                of the region above
//   call <TAB> INSTRUCTIONS <TAB> CALLER ID <TAB> CALLEE ID    of the region above
#include "model/function_profile.h"

#include <map>
#include <string>

namespace perfgate {

using RegionProfiles = std::map<std::string, FunctionProfile>;  ///< by region (benchmark) name

/// A kept profile's resolution: functions and calls below this share of their step are left out, so a step that moved
/// by less than this share cannot be explained by it (and is not: such moves come from the environment, not the code).
constexpr double kProfileResolution = 1e-4;

/// Where the profiles of `json_path` live: its name with ".json" replaced by ".functions.tsv" (appended when it does
/// not end in ".json"). Never a .json file: whatever reads every *.json of a folder as results never reads a profile.
std::string function_profile_path(const std::string& json_path);

/// The file's text. A function or call whose instructions are all below `min_share` of its region's total is left out
/// (the differential of such a function is below that share of the step). Region and function names are written as
/// one_line writes them.
std::string function_profile_text(const RegionProfiles& profiles, double min_share = kProfileResolution);

/// Parses the text; throws InputError naming `source` and the line for anything else: another header, a record before
/// its region, a name number not defined before, a count that is not a non-negative integer within int64, a record
/// with too few or too many fields.
RegionProfiles parse_function_profiles(const std::string& text, const std::string& source);

/// Reads `path`'s profiles when the file exists, none otherwise (a baseline recorded before profiles were kept, or
/// results of a tool that keeps none); InputError when it exists and is not such a file.
RegionProfiles read_function_profiles_if_any(const std::string& path);

}  // namespace perfgate
