// The Markdown summary: the verdict first, then what failed (with the command that accepts it), then the rest.
#include "base/markdown_text.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "base/utf8_text.h"
#include "model/fix_command.h"
#include "render/ab_markdown.h"
#include "render/report_render.h"
#include "render/row_text.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace perfgate {
namespace {

std::string cell(const std::string& text) { return markdown_text(text); }

}  // namespace

std::string render_markdown(const ReportData& data) {
  std::ostringstream out;
  out << "## " << cell(data.title) << ": **" << to_string(overall(data)) << "**\n\n";
  out << "commit " << cell(data.git_sha.empty() ? std::string("(not recorded in the results)") : data.git_sha) << " · "
      << cell(data.machine) << " · " << cell(data.date) << "\n\n";
  for (const auto& s : data.speedups) {
    const auto& r = s.report;
    out << "- Speedup " << (s.gate.empty() ? std::string() : cell(s.gate) + " ") << to_string(r.verdict) << " of "
        << cell(s.candidate) << " over " << cell(s.reference) << ": " << format_number(r.median, 5) << "x, "
        << format_number(100.0 * r.confidence, 5) << " % interval [" << format_number(r.low, 5) << ", "
        << format_number(r.high, 5) << "], " << r.pairs << " paired repetitions, gate " << format_number(r.threshold, 5)
        << "x";
    if (s.target && s.target_verdict)
      out << "; aim " << format_number(*s.target, 5) << "x (not gated): " << aim_status(*s.target_verdict);
    out << "\n";
  }
  int passed = 0, failed = 0, other = 0;
  for (const auto& c : data.checks) {
    for (const auto& row : c.rows) {
      if (row.verdict == Verdict::pass)
        ++passed;
      else if (row.verdict == Verdict::fail || row.verdict == Verdict::missing)
        ++failed;
      else
        ++other;
    }
  }
  out << "- Baseline checks: " << passed << " passed, " << failed << " failed, " << other
      << " not gated (advisory or unbaselined)\n";
  for (const auto& c : data.checks) {
    for (const auto& row : c.rows) {
      if (row.verdict != Verdict::slower) continue;
      out << "- **WARNING**: " << cell(row.benchmark) << " " << cell(row.field) << " = " << cell(value_text(row))
          << ", baseline " << cell(baseline_text(row)) << " (" << cell(change_of(row)) << "), beyond its tolerance ("
          << cell(tolerance_text(row)) << "); advisory, so not gated\n";
    }
  }
  out << "\n";
  if (failed > 0) {
    out << "| verdict | suite | benchmark | field | value | baseline | change | worst acceptable | tolerance | reason "
           "|\n"
        << "|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& c : data.checks) {
      for (const auto& row : c.rows) {
        if (row.verdict != Verdict::fail && row.verdict != Verdict::missing) continue;
        out << "| " << to_string(row.verdict) << " | " << cell(c.name) << " | " << cell(row.benchmark) << " | "
            << cell(row.field) << " | "
            << cell(row.verdict == Verdict::missing ? std::string("absent") : value_text(row)) << " | "
            << cell(baseline_text(row)) << " | " << cell(change_of(row)) << " | " << cell(threshold_text(row)) << " | "
            << cell(tolerance_text(row)) << " | " << cell(reason_text(row)) << " |\n";
      }
    }
    for (const auto& c : data.checks) {
      if (exit_code_of(c.rows) == 0) continue;
      // Read on another machine than the one that ran the report: perfgate by name, not by this runner's path.
      const FixContext fix{"perfgate", c.results_path, c.baseline_path, {}, false, false};
      const auto accept = accept_fix(c.rows, fix);
      out << "\n**" << cell(c.name) << "**: ";
      if (!accept.command.empty())
        out << "if the change is intended, accept it with\n\n```sh\n" << accept.command << "\n```\n";
      for (const auto& note : accept.notes) out << "\n" << cell(note) << "\n";
    }
  }
  for (const auto& c : data.checks) {  // which functions moved a changed instruction count: the largest few
    for (const auto& b : c.functions.benchmarks) {
      out << "\n**" << cell(c.name) << "** " << cell(b.benchmark) << ": instructions per step "
          << b.changes.total_before << " → " << b.changes.total_after
          << "; the functions whose own instructions changed most:\n\n| change | share of the step's change | function "
             "|\n|---|---|---|\n";
      const size_t shown = std::min<size_t>(b.changes.by_self.size(), 5);
      for (size_t i = 0; i < shown; ++i) {
        const auto& f = b.changes.by_self[i];
        out << "| " << (f.self_delta() > 0 ? "+" : "") << f.self_delta() << " | "
            << (b.changes.total_delta() != 0
                    ? format_fixed(100.0 * share_of_change(f.self_delta(), b.changes), 1) + " %"
                    : "-")
            << " | " << cell(f.name) << " |\n";
      }
    }
  }
  if (data.ab) out << "\n" << render_ab_markdown(*data.ab);
  // About the measuring library, not the results: a footnote.
  if (!data.benchmark_library_note.empty()) out << "\n---\nNote: " << cell(data.benchmark_library_note) << "\n";
  return out.str();
}

}  // namespace perfgate
