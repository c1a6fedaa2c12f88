#pragma once
// Human-readable output of a comparison: an aligned verdict table and one actionable line per failure.
#include "compare.h"

#include <ostream>
#include <string>

namespace perfgate {

/// The verdict table, one row per metric.
void print_table(std::ostream& out, const std::vector<Row>& rows);

/// One line per failing or missing metric — name, value, baseline, tolerance, verdict and why — followed by the
/// command that would accept the new values if the change is intended.
void print_failures(std::ostream& out, const std::vector<Row>& rows, const std::string& update_command);

}  // namespace perfgate
