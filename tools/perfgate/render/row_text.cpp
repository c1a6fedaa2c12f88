#include "render/row_text.h"

#include "base/number_format.h"

namespace perfgate {
namespace {

std::string machine_or_unknown(const std::string& fingerprint) {
  return fingerprint.empty() ? "(unknown)" : fingerprint;
}

std::string finding_text(const Row& row, Finding finding) {
  switch (finding) {
    case Finding::beyond_tolerance:
      return row.tolerance.kind == Tolerance::Kind::exact ? "differs from the baseline"
             : row.direction == Direction::either         ? "moved from the baseline beyond tolerance"
                                                          : "worse than baseline beyond tolerance";
    case Finding::beyond_limit:
      return "beyond the hard limit " + format_number(row.limit.value_or(0.0));
    case Finding::not_measured:
      return "no measurement of this metric in " + row.results_source;
    case Finding::other_machine:
      return "recorded on machine " + machine_or_unknown(row.baseline_machine) + ", these results on " +
             machine_or_unknown(row.results_machine);
    case Finding::not_baselined:
      return "no baseline entry";
  }
  return "?";
}

}  // namespace

std::string criterion_text(Direction direction, const Tolerance& tolerance, const std::optional<double>& limit,
                           bool advisory) {
  std::string text = describe(tolerance);
  if (limit) text += std::string(direction == Direction::higher ? ", min " : ", max ") + format_number(*limit);
  if (advisory) text += ", advisory";
  return text;
}

std::string tolerance_text(const Row& row) {
  return row.verdict == Verdict::unbaselined ? std::string()
                                             : criterion_text(row.direction, row.tolerance, row.limit, row.advisory);
}

std::string with_unit(const std::string& value, const std::string& unit) {
  return value.empty() || unit.empty() ? value : value + " " + unit;
}

namespace {

bool measured(const Row& row) {
  return row.samples > 0 && row.verdict != Verdict::missing && row.verdict != Verdict::unbaselined;
}

}  // namespace

std::string value_text(const Row& row) {
  return measured(row) ? with_unit(format_value(row.value, row.value_integer), row.unit) : "-";
}

std::string baseline_text(const Row& row) {
  return row.verdict == Verdict::unbaselined ? "-"
                                             : with_unit(format_value(row.baseline, row.baseline_integer), row.unit);
}

std::string threshold_text(const Row& row) {
  if (row.verdict == Verdict::unbaselined) return "-";
  if (row.tolerance.kind == Tolerance::Kind::exact) return baseline_text(row);
  return with_unit(format_number(row.threshold), row.unit);
}

std::string change_of(const Row& row) {
  if (!measured(row) || row.verdict == Verdict::other_machine) return "-";
  const auto text = change_text(row.value, row.baseline);
  return text.empty() ? "-" : text;
}

std::string reason_text(const Row& row) {
  std::string text;
  for (const auto finding : row.findings) text += (text.empty() ? "" : "; ") + finding_text(row, finding);
  return text;
}

std::string to_string(Finding finding) {
  switch (finding) {
    case Finding::beyond_tolerance:
      return "beyond_tolerance";
    case Finding::beyond_limit:
      return "beyond_limit";
    case Finding::not_measured:
      return "not_measured";
    case Finding::other_machine:
      return "other_machine";
    case Finding::not_baselined:
      return "not_baselined";
  }
  return "?";
}

}  // namespace perfgate
