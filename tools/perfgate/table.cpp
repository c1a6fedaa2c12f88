#include "table.h"
#include "number_format.h"
#include "one_line.h"
#include "row_text.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <vector>

namespace perfgate {

void print_table(std::ostream& out, const std::vector<Row>& rows) {
  std::vector<std::vector<std::string>> cells = {{"verdict", "benchmark", "field", "value", "baseline", "threshold", "tolerance", "n"}};
  for (const auto& r : rows) {
    if (r.verdict == Verdict::unbaselined) {
      cells.push_back({to_string(r.verdict), r.benchmark, "-", "-", "-", "-", "-", "-"});
      continue;
    }
    cells.push_back({to_string(r.verdict), r.benchmark, r.field, r.samples > 0 ? format_number(r.value) + (r.unit.empty() ? "" : " " + r.unit) : "-",
                     format_number(r.baseline), format_number(r.threshold), tolerance_text(r), std::to_string(r.samples)});
  }
  std::vector<size_t> width(cells.front().size(), 0);
  for (const auto& row : cells)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], one_line(row[i]).size());
  for (const auto& row : cells) {
    for (size_t i = 0; i < row.size(); ++i) out << std::left << std::setw(static_cast<int>(width[i]) + 2) << one_line(row[i]);
    out << '\n';
  }
}

void print_failures(std::ostream& out, const std::vector<Row>& rows, const std::string& update_command) {
  bool any = false;
  for (const auto& r : rows) {
    if (r.verdict != Verdict::fail && r.verdict != Verdict::missing) continue;
    any = true;
    out << to_string(r.verdict) << ": " << one_line(r.benchmark) << " " << one_line(r.field) << " = "
        << (r.samples > 0 ? format_number(r.value) : std::string("absent")) << " (baseline " << format_number(r.baseline) << ", "
        << tolerance_text(r) << ", worst acceptable " << format_number(r.threshold) << "): " << one_line(reason_text(r)) << '\n';
  }
  if (any) out << "If the change is intended, accept the new values with:\n  " << update_command << '\n';
  for (const auto& r : rows) {
    if (r.verdict != Verdict::slower) continue;
    out << to_string(r.verdict) << " (not gated): " << one_line(r.benchmark) << " " << one_line(r.field) << " = " << format_number(r.value) << " " << one_line(r.unit)
        << " against this machine's advisory figure " << format_number(r.baseline) << " (" << tolerance_text(r) << ")\n";
  }
}

}  // namespace perfgate
