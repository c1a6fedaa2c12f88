#include "render/table.h"
#include "base/one_line.h"
#include "render/row_text.h"

#include <algorithm>
#include <iomanip>
#include <vector>

namespace perfgate {

void print_table(std::ostream& out, const std::vector<Row>& rows) {
  std::vector<std::vector<std::string>> cells = {
      {"verdict", "benchmark", "field", "value", "baseline", "change", "worst acceptable", "tolerance", "n"}};
  for (const auto& r : rows) {
    if (r.verdict == Verdict::unbaselined) {
      cells.push_back({to_string(r.verdict), r.benchmark, "-", "-", "-", "-", "-", "-", "-"});
      continue;
    }
    cells.push_back({to_string(r.verdict), r.benchmark, r.field, value_text(r), baseline_text(r), change_of(r),
                     threshold_text(r), tolerance_text(r), std::to_string(r.samples)});
  }
  std::vector<size_t> width(cells.front().size(), 0);
  for (const auto& row : cells)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], one_line(row[i]).size());
  for (const auto& row : cells) {
    for (size_t i = 0; i < row.size(); ++i)
      out << std::left << std::setw(static_cast<int>(width[i]) + 2) << one_line(row[i]);
    out << '\n';
  }
}

void print_failures(std::ostream& out, const std::vector<Row>& rows, const std::string& fix) {
  size_t failed = 0, warned = 0, judged = 0;
  for (const auto& r : rows) {
    if (r.verdict != Verdict::unbaselined && r.verdict != Verdict::other_machine) ++judged;
    if (r.verdict != Verdict::fail && r.verdict != Verdict::missing) continue;
    ++failed;
    out << to_string(r.verdict) << ": " << one_line(r.benchmark) << " " << one_line(r.field) << " = "
        << (r.verdict == Verdict::missing ? std::string("absent") : value_text(r)) << ", baseline " << baseline_text(r)
        << (r.verdict == Verdict::missing ? "" : " (" + change_of(r) + ")") << ", " << tolerance_text(r)
        << ", worst acceptable " << threshold_text(r) << ": " << one_line(reason_text(r)) << '\n';
  }
  if (failed > 0) out << fix;
  for (const auto& r : rows) {
    if (r.verdict != Verdict::slower) continue;
    ++warned;
    out << "WARNING: " << one_line(r.benchmark) << " " << one_line(r.field) << " = " << value_text(r) << ", baseline "
        << baseline_text(r) << " (" << change_of(r) << "), beyond its tolerance (" << tolerance_text(r)
        << ") on the machine that recorded it; advisory, so not gated\n";
  }
  // Timings not judged are said once, with the reason: a PASS that judged none of them must not read as a judged one.
  size_t skipped = 0;
  const Row* first_skipped = nullptr;
  for (const auto& r : rows) {
    if (r.verdict != Verdict::other_machine) continue;
    if (++skipped == 1) first_skipped = &r;
  }
  if (first_skipped != nullptr) {
    out << "note: " << skipped << (skipped == 1 ? " timing" : " timings")
        << " SKIPPED, judged only on the machine that "
        << "recorded the baseline: " << one_line(reason_text(*first_skipped))
        << (first_skipped->results_machine.empty() ? " (the results name no machine_fingerprint; perfgate's runners "
                                                     "record one, a file of your own can give one in its context)"
                                                   : "")
        << '\n';
  }
  out << "perfgate: "
      << (failed > 0 ? "FAIL, " + std::to_string(failed) + " of " + std::to_string(judged) + " metrics"
                     : "PASS, " + std::to_string(judged) + " metrics")
      << (warned > 0 ? ", " + std::to_string(warned) + (warned == 1 ? " warning" : " warnings") : "") << '\n';
}

}  // namespace perfgate
