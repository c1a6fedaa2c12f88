#pragma once
// What perfgate's command line says to a person: each command's example and exit codes, the short overview of
// `perfgate help`, and "did you mean" for a mistyped command or option.
#include "base/exit_codes.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

/// A command's help footer: its example(s) (lines after the first indented by the caller) and its exit codes, to
/// which perfgate's own "4 internal error" is added.
std::string command_footer(const std::string& example, std::initializer_list<Exit> codes, const std::string& note = "");

/// `perfgate help`: one line per command (its name and description) and where to read more.
std::string overview(const std::vector<std::pair<std::string, std::string>>& commands);

/// The name among `names` closest to `word` (at most a third of its letters different, or `word` a prefix of it
/// and unique), or "" when none is close.
std::string closest_name(const std::string& word, const std::vector<std::string>& names);

}  // namespace perfgate
