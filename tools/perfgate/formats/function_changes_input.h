#pragma once
// A differential profile read back from the JSON perfgate wrote (verdicts.json's `functions`, ab --json's), as
// untrusted input: a pull request's comment is rendered from it. Every field used is checked; the inverse of
// profile_changes_json.
#include "base/json_reader.h"
#include "model/function_changes.h"

#include <string>

namespace perfgate {

/// Throws InputError (through `reader`) when `value` is not the object profile_changes_json writes.
ProfileChanges parse_profile_changes(const JsonReader& reader, const nlohmann::json& value, const std::string& where);

/// The functions whose own instructions moved most, as one Markdown line for a pull request's comment:
/// "**BENCHMARK**: own instructions moved most in `f` +N (S %), ...", at most `top` of them, every name escaped and
/// shortened; "" when none moved.
std::string profile_changes_markdown_line(const std::string& benchmark, const ProfileChanges& changes, size_t top = 3);

}  // namespace perfgate
