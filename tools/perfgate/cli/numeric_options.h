#pragma once
// The one check of perfgate's numeric options. CLI::Range alone lets "nan" through (every comparison with NaN
// is false) and accepts "inf" as the largest value in range; these checks refuse both, naming the rule.
#include <CLI/CLI.hpp>

namespace perfgate {

/// A finite number in [low, high].
CLI::Validator finite_in(double low, double high);

/// A finite number > 0 (a threshold, a speedup target).
CLI::Validator positive_number();

}  // namespace perfgate
