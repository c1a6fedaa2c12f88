#pragma once
// A differential profile: which functions' instructions changed between two profiles of the same measured step, and
// by how much. Pure; the terminal, the report, verdicts.json and the flame graph all show what this computes.
#include "model/function_profile.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace perfgate {

struct FunctionChange {
  std::string name;
  FunctionCost before, after;  ///< zero where the function did not run (or was not recorded) on that side
  int64_t self_delta() const { return after.self - before.self; }
  int64_t inclusive_delta() const { return after.inclusive - before.inclusive; }
};

struct ProfileChanges {
  int64_t total_before = 0, total_after = 0;  ///< the step's instructions on each side
  std::vector<FunctionChange> by_self;  ///< the functions whose own instructions changed most, largest |delta| first
  std::vector<FunctionChange> by_inclusive;  ///< the same for inclusive instructions
  int64_t total_delta() const { return total_after - total_before; }
};

/// The `top` functions whose self and whose inclusive instructions changed most from `before` to `after` (no function
/// that did not change; ties by name, so the order is reproducible).
ProfileChanges profile_changes(const FunctionProfile& before, const FunctionProfile& after, size_t top = 8);

/// A function's self delta as a share of the step's whole change (+100 % when it alone explains it; beyond ±100 %
/// when other functions moved the other way); 0 when the step's total did not change.
double share_of_change(int64_t delta, const ProfileChanges& changes);

/// The changes as JSON (verdicts.json, bisect --json, ab --json): the step's totals, and per list each function's name,
/// before, after, delta, share_of_change (delta / the step's change, a fraction; 0 when the step's total did not
/// change) and relative_change (delta / before, a fraction; null when before is 0).
nlohmann::json profile_changes_json(const ProfileChanges& changes);

/// The changes as indented terminal lines: a heading per list, then per function its delta, its share of the step's
/// change (own instructions) or its own relative change (inclusive; "new" from zero), before → after and its name
/// (one line, cut to `name_width` characters).
std::string profile_changes_text(const ProfileChanges& changes, const std::string& indent, size_t name_width = 110);

}  // namespace perfgate
