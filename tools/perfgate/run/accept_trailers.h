#pragma once
// Accepting rules (accept_rules.h) from a pull request's commits: the values of their `perfgate-accept:` trailers.
#include "model/accept_rules.h"

#include <string>
#include <vector>

namespace perfgate {

/// The rules in the `perfgate-accept` trailers of the commits in `range` (e.g. BASE..HEAD, merges left out) of the
/// repository containing `directory`, newest commit first. Throws InputError when git cannot read the range or a
/// trailer is malformed (naming its commit).
std::vector<AcceptRule> accept_rules_from_trailers(const std::string& directory, const std::string& range);

}  // namespace perfgate
