#include "base/number_format.h"
#include "base/xml_escape.h"
#include "render/report_render.h"
#include "render/row_text.h"

#include <iomanip>
#include <sstream>

namespace perfgate {
namespace {

std::string base64(const std::string& bytes) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t chunk = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= static_cast<uint8_t>(bytes[i + 2]);
    out += alphabet[(chunk >> 18) & 63];
    out += alphabet[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? alphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? alphabet[chunk & 63] : '=';
  }
  return out;
}

std::string e(const std::string& text) { return escape_xml(text); }

std::string verdict_badge(const std::string& verdict) {
  return "<span class=\"verdict v-" + file_slug(verdict) + "\">" + e(verdict) + "</span>";
}

void plots_of(std::ostringstream& out, const std::vector<Plot>& plots, const std::string& section) {
  for (const auto& p : plots) {
    if (p.section == section)
      out << "<figure class=\"plot\" id=\"plot-" << e(p.slug) << "\">" << p.svg << "</figure>\n";
  }
}

constexpr const char* kStyle = R"(
body{font-family:sans-serif;margin:2em auto;max-width:1100px;color:#222;line-height:1.4}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}
td,th{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}
.verdict{font-weight:bold;padding:1px 6px;border-radius:3px;color:#fff;background:#777}
.v-PASS{background:#2e7d32}.v-FAIL,.v-MISSING{background:#c62828}.v-INCONCLUSIVE,.v-WARNING{background:#ef6c00}
.v-NO-BASELINE,.v-SKIPPED{background:#757575}.v-ACCEPTED{background:#6a1b9a}
figure.plot{margin:.5em 0}
.figure{margin:0 0 1em}.figure img{max-width:100%;height:auto;border:1px solid #ccc}.images{display:flex;flex-wrap:wrap;gap:1em}.images figure{margin:0}.images img{width:220px;image-rendering:pixelated;border:1px solid #ccc}
code{background:#f5f5f5;padding:0 3px}
)";

}  // namespace

// The functions that moved a check's instruction counts: per benchmark, those whose own and whose inclusive
// instructions changed most.
void function_changes_of(std::ostringstream& out, const CheckSection& c) {
  for (const auto& b : c.functions.benchmarks) {
    out << "<h4>Functions that moved the instructions of " << e(b.benchmark) << "</h4><p>instructions per step "
        << b.changes.total_before << " → " << b.changes.total_after
        << "; share: of the step's change (own), of the function's own (inclusive)</p>\n<table "
           "class=\"functions\"><tr><th>instructions</th>"
        << "<th>function</th><th>change</th><th>share</th><th>before → after</th></tr>\n";
    const auto rows = [&](const std::vector<FunctionChange>& list, bool self) {
      for (const auto& f : list) {
        const auto delta = self ? f.self_delta() : f.inclusive_delta();
        const auto before = self ? f.before.self : f.before.inclusive;
        const std::string share =
            self ? (b.changes.total_delta() != 0 ? format_fixed(100.0 * share_of_change(delta, b.changes), 1) + " %"
                                                 : "-")
                 : (before > 0 ? format_fixed(100.0 * static_cast<double>(delta) / static_cast<double>(before), 1) +
                                     " % of its own"
                               : "new");
        out << "<tr><td>" << (self ? "own" : "inclusive") << "</td><td><code>" << e(f.name) << "</code></td><td>"
            << (delta > 0 ? "+" : "") << delta << "</td><td>" << share << "</td><td>" << before << " → "
            << (self ? f.after.self : f.after.inclusive) << "</td></tr>\n";
      }
    };
    rows(b.changes.by_self, true);
    rows(b.changes.by_inclusive, false);
    out << "</table>\n";
  }
}

std::string render_html(const ReportData& data, const std::vector<Plot>& plots) {
  std::ostringstream out;
  const auto status = to_string(overall(data));
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src "
         "'unsafe-inline'\">"
      << "<title>" << e(data.title) << ": " << status << "</title><style>" << kStyle << "</style></head><body>\n";
  out << "<h1 id=\"overall\">" << e(data.title) << " " << verdict_badge(status) << "</h1>\n<p>commit <code>"
      << e(data.git_sha.empty() ? std::string("(not recorded in the results)") : data.git_sha) << "</code> · machine "
      << e(data.machine) << " · " << e(data.date) << "</p>\n";

  for (size_t i = 0; i < data.speedups.size(); ++i) {
    const auto& s = data.speedups[i];
    const auto& r = s.report;
    out << "<section id=\"speedup" << (i == 0 ? std::string() : "-" + std::to_string(i + 1))
        << "\"><h2>Speedup (paired, interleaved)"
        << (s.gate.empty() ? std::string() : ": <code>" + e(s.gate) + "</code>") << "</h2><p>"
        << verdict_badge(to_string(r.verdict)) << " <code>" << e(s.reference) << "</code> / <code>" << e(s.candidate)
        << "</code> = <b>" << format_number(r.median) << "x</b>, " << format_number(100.0 * r.confidence)
        << " % interval [" << format_number(r.low) << ", " << format_number(r.high) << "] over " << r.pairs
        << " paired repetitions; gate threshold " << format_number(r.threshold) << "x";
    if (s.target && s.target_verdict) {
      out << ". Aim " << format_number(*s.target) << "x (reported, not gated): <span class=\"aim\">"
          << aim_status(*s.target_verdict) << "</span>";
    }
    out << ".</p>\n";
    plots_of(out, plots, speedup_section(i));
    out << "</section>\n";
  }

  if (data.ab) {
    const auto& ab = *data.ab;
    out << "<section id=\"ab\"><h2>Against the merge base (perfgate ab)</h2><p>" << verdict_badge(overall_text(ab))
        << " revisions interleaved ABBA, tolerated slowdown " << format_number(100.0 * ab.max_slowdown) << " %.</p>\n"
        << "<table><tr><th>verdict</th><th>benchmark</th><th>head / base</th><th>interval</th><th>base → "
           "head</th><th>acceptance</th></tr>\n";
    for (const auto& t : ab.timings) {
      const auto& c = t.comparison;
      out << "<tr><td>" << verdict_badge(verdict_text(c)) << "</td><td><code>" << e(c.benchmark) << "</code></td><td>"
          << format_number(c.median, 4) << "x</td><td>[" << format_number(c.low, 4) << ", " << format_number(c.high, 4)
          << "]</td><td>" << format_number(c.base_median, 5) << " → " << format_number(c.head_median, 5) << " "
          << e(c.unit) << "</td><td>" << (c.acceptance ? e(acceptance_text(*c.acceptance)) : std::string())
          << "</td></tr>\n";
    }
    for (const auto& c : ab.costs) {
      out << "<tr><td>" << verdict_badge(verdict_text(c)) << "</td><td><code>" << e(c.benchmark)
          << "</code> instructions</td><td>" << format_number(c.head / c.base, 6) << "x</td><td>exact</td><td>"
          << format_number(c.base, 15) << " → " << format_number(c.head, 15) << "</td><td>"
          << (c.acceptance ? e(acceptance_text(*c.acceptance)) : std::string()) << "</td></tr>\n";
    }
    out << "</table></section>\n";
  }

  out << "<section id=\"checks\"><h2>Results against baselines</h2>\n";
  for (const auto& c : data.checks) {
    out << "<section class=\"check\" id=\"check-" << e(file_slug(c.name)) << "\"><h3>" << e(c.name) << " "
        << verdict_badge(exit_code_of(c.rows) == 0 ? "PASS" : "FAIL") << "</h3><p><code>" << e(c.results_path)
        << "</code> against <code>" << e(c.baseline_path)
        << "</code></p>\n<table><tr><th>verdict</th><th>benchmark</th><th>field</th><th>value</th><th>baseline</th>"
        << "<th>change</th><th>worst acceptable</th><th>tolerance</th><th>n</th><th>reason</th></tr>\n";
    for (const auto& row : c.rows) {
      out << "<tr><td>" << verdict_badge(to_string(row.verdict)) << "</td><td>" << e(row.benchmark) << "</td><td>"
          << e(row.field) << "</td><td>" << e(value_text(row)) << "</td><td>" << e(baseline_text(row)) << "</td><td>"
          << e(change_of(row)) << "</td><td>" << e(threshold_text(row)) << "</td><td>" << e(tolerance_text(row))
          << "</td><td>" << row.samples << "</td><td>" << e(reason_text(row)) << "</td></tr>\n";
    }
    out << "</table>\n";
    function_changes_of(out, c);
    for (const auto& note : c.functions.notes)
      out << "<p class=\"note\">" << e(note.benchmark) << ": " << e(note.text) << "</p>\n";
    plots_of(out, plots, "functions:" + c.name);
    out << "<details open><summary>distributions</summary>\n";
    plots_of(out, plots, "check:" + c.name);
    out << "</details></section>\n";
  }
  out << "</section>\n";

  if (data.ablation) {
    out << "<section id=\"ablation\"><h2>Ablation</h2><p>Median time per step of <code>"
        << e(data.ablation->results_path)
        << "</code>: the optimized pipeline with one switch flipped from its default per row.</p>\n";
    plots_of(out, plots, "ablation");
    out << "</section>\n";
  }

  if (!data.image_sets.empty()) {
    out << "<section id=\"images\"><h2>Images</h2>\n";
    for (const auto& set : data.image_sets) {
      out << "<h3>" << e(set.label) << "</h3><div class=\"images\">\n";
      for (const auto& image : set.images) {
        out << "<figure><img alt=\"" << e(set.label + " " + image.caption) << "\" src=\"data:image/png;base64,"
            << base64(image.png) << "\"><figcaption>" << e(image.caption) << "</figcaption></figure>\n";
      }
      out << "</div>\n";
    }
    out << "</section>\n";
  }

  if (!data.figures.empty()) {
    out << "<section id=\"figures\"><h2>Figures</h2>\n";
    for (const auto& figure : data.figures) {
      out << "<figure class=\"figure\"><img alt=\"" << e(figure.caption) << "\" src=\"data:image/png;base64,"
          << base64(figure.png) << "\"><figcaption>" << e(figure.caption) << "</figcaption></figure>\n";
    }
    out << "</section>\n";
  }

  if (!data.trends.empty()) {
    out << "<section id=\"history\"><h2>History</h2>\n";
    for (const auto& t : data.trends) {
      for (const auto& note : t.change_notes) out << "<p class=\"change-note\">" << e(note) << "</p>\n";
    }
    plots_of(out, plots, "trends");
    out << "</section>\n";
  }
  // About the measuring library, not the results: a footnote.
  if (!data.benchmark_library_note.empty())
    out << "<footer><p class=\"note\">Note: " << e(data.benchmark_library_note) << "</p></footer>\n";
  out << "</body></html>\n";
  return out.str();
}

}  // namespace perfgate
