#include "render/ab_markdown.h"

#include "base/markdown_text.h"
#include "base/number_format.h"
#include "formats/function_changes_input.h"
#include "render/markdown_rows.h"

#include <cmath>
#include <sstream>

namespace perfgate {
namespace {

constexpr size_t kTimingTableBytes = 14000, kCostTableBytes = 10000, kAcceptanceBytes = 10000;

std::string md(const std::string& text) { return markdown_cell(text); }

std::string md_number(double value) { return markdown_text(format_number(value, 4)); }

int rank_of(const std::string& verdict) {
  if (verdict == "FAIL") return 0;
  if (verdict == "ACCEPTED") return 1;
  if (verdict == "INCONCLUSIVE") return 2;
  return 3;
}

// "+9.66%", "-0.31%", "+0.00%" (never "+-0.00%").
std::string change_percent(double fraction) {
  const double percent = std::round(10000.0 * fraction) / 100.0;
  std::string text = format_fixed(percent == 0.0 ? 0.0 : percent, 2);
  if (text[0] != '-') text = "+" + text;
  return md(text + "%");
}

std::string acceptance_line(const std::string& benchmark, const std::string& field, const Acceptance& a) {
  // Never a line that starts with text from the inputs: leading spaces there would make a code block.
  return std::string("- ") + (a.within ? "**accepted**: " : "**beyond its acceptance**: ") + md(benchmark) + " " +
         md(field) + ", up to " + md("+" + format_number(a.rule.percent) + "%") + " by " + md(a.rule.source) + ": " +
         md(a.rule.reason) + "\n";
}

}  // namespace

std::string render_ab_markdown(const AbRecord& ab) {
  std::ostringstream out;
  out << "**Against the merge base: " << md(overall_text(ab))
      << "** (perfgate ab, revisions interleaved ABBA, tolerated slowdown "
      << md(format_number(100.0 * ab.max_slowdown) + "%") << ")\n\n";
  std::vector<std::string> timings;
  for (int rank = 0; rank < 4; ++rank) {
    for (const auto& t : ab.timings) {
      const auto& c = t.comparison;
      if (rank_of(verdict_text(c)) != rank) continue;
      timings.push_back("| **" + md(verdict_text(c)) + "** | " + md(c.benchmark) + " | " + md_number(c.median) +
                        "x | " + change_percent(c.median - 1.0) + " | [" + md_number(c.low) + ", " + md_number(c.high) +
                        "] | " + md_number(c.base_median) + " → " + md_number(c.head_median) + " " + md(c.unit) +
                        " |\n");
    }
  }
  if (!timings.empty()) {
    out << "| Verdict | Benchmark | Head / base | Change | Interval | Base → head |\n|---|---|---:|---:|---|---|\n";
    append_rows(out, timings, kCommentRowsPerTable, kTimingTableBytes);
    out << "\n";
  }
  if (ab.has_costs) {
    out << "**Instructions per step** (callgrind, exact; tolerated increase "
        << md(format_number(100.0 * ab.max_instruction_increase) + "%")
        << ")\n\n| Verdict | Benchmark | Base | Head | Change |\n|---|---|---:|---:|---:|\n";
    std::vector<std::string> costs;
    for (int rank = 0; rank < 4; ++rank) {
      for (const auto& c : ab.costs) {
        if (rank_of(verdict_text(c)) != rank) continue;
        costs.push_back("| **" + md(verdict_text(c)) + "** | " + md(c.benchmark) + " | " +
                        md(format_number(c.base, 15)) + " | " + md(format_number(c.head, 15)) + " | " +
                        change_percent(c.change) + " |\n");
      }
    }
    append_rows(out, costs, kCommentRowsPerTable, kCostTableBytes);
    out << "\n";
    std::vector<std::string> moves;  // which functions moved a count beyond the tolerance
    for (const auto& c : ab.costs) {
      if (!c.fail || !c.functions) continue;
      const auto line = profile_changes_markdown_line(c.benchmark, *c.functions);
      if (!line.empty()) moves.push_back("- " + line);
    }
    if (!moves.empty()) {
      append_rows(out, moves, kCommentRowsPerTable, kCostTableBytes / 2);
      out << "\n";
    }
  }
  std::vector<std::string> accepted;
  for (const auto& t : ab.timings) {
    if (t.comparison.acceptance)
      accepted.push_back(acceptance_line(t.comparison.benchmark, "real_time", *t.comparison.acceptance));
  }
  for (const auto& c : ab.costs) {
    if (c.acceptance) accepted.push_back(acceptance_line(c.benchmark, "instructions", *c.acceptance));
  }
  if (!accepted.empty()) {
    out << "Regressions accepted on purpose (perfgate-accept trailers of the pull request's commits):\n\n";
    append_rows(out, accepted, kCommentRowsPerTable, kAcceptanceBytes);
    out << "\n";
  }
  return out.str();
}

}  // namespace perfgate
