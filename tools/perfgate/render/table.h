#pragma once
// Human-readable output of a comparison: an aligned verdict table, one line per failure or warning, and the
// command that accepts an intended change.
#include "model/compare.h"

#include <ostream>
#include <string>

namespace perfgate {

/// The verdict table, one row per metric: value, baseline and worst acceptable value with their units, and the change.
void print_table(std::ostream& out, const std::vector<Row>& rows);

/// One line per failing or missing metric (name, value, baseline, change, tolerance and why), then `fix`: the
/// accepting command and what to know about it (fix_command.h). Then one WARNING line per advisory figure beyond its
/// tolerance, and a last line with the verdict and its counts.
void print_failures(std::ostream& out, const std::vector<Row>& rows, const std::string& fix);

}  // namespace perfgate
