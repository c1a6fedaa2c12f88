#pragma once
// The words for a comparison row (compare.h): its tolerance and why it did not pass. Every renderer (the terminal
// table, summary.md, report.html, verdicts.json, JUnit) words a row through these, so it reads the same everywhere;
// the pure layer only hands over values.
#include "model/compare.h"

#include <optional>
#include <string>

namespace perfgate {

/// A baseline entry's criterion, e.g. "5% rel", "±0.05 abs, max 0.2", "25% rel, advisory".
std::string criterion_text(Direction direction, const Tolerance& tolerance, const std::optional<double>& limit,
                           bool advisory);

/// The row's criterion (criterion_text of its entry); "" for an unbaselined row.
std::string tolerance_text(const Row& row);

/// A printed value with its unit ("7227.5 ns"); a count, or a value not given (""), as it is.
std::string with_unit(const std::string& value, const std::string& unit);

/// The row's measured value with its unit, exact for whole numbers ("225960", "13.26 ms"); "-" when not measured.
std::string value_text(const Row& row);
/// The baseline's value with its unit; "-" for an unbaselined row.
std::string baseline_text(const Row& row);
/// The worst acceptable value with its unit; "-" for an unbaselined row.
std::string threshold_text(const Row& row);
/// How far the value moved from the baseline, "+3.2% (1.032x)"; "-" when there is nothing to compare.
std::string change_of(const Row& row);

/// Why the row did not pass, e.g. "worse than baseline beyond tolerance; beyond the hard limit 3"; "" when it passed.
std::string reason_text(const Row& row);

/// The finding's stable identifier in machine-readable output (verdicts.json), e.g. "beyond_tolerance".
std::string to_string(Finding finding);

}  // namespace perfgate
