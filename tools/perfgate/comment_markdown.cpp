#include "comment_markdown.h"

#include "error.h"
#include "markdown_text.h"
#include "number_format.h"
#include "one_line.h"

#include <sstream>

namespace perfgate {
namespace {

std::string md(const std::string& text) { return markdown_text(text, 200); }

std::string md_number(double value) { return markdown_text(format_number(value, 4)); }

bool plain_url(const std::string& url) {
  if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) return false;
  if (url.size() > 2000) return false;
  for (const char c : url) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string("-._~:/?#=&%+,;").find(c) != std::string::npos;
    if (!ok) return false;
  }
  return true;
}

int rank_of(const std::string& verdict) {
  if (verdict == "FAIL" || verdict == "MISSING") return 0;
  if (verdict == "ACCEPTED") return 1;
  if (verdict == "WARNING") return 2;
  return 3;
}

std::string more_line(size_t left_out) {
  return "\n… and " + std::to_string(left_out) + " more, listed in the report.\n";
}

void render_verdicts(std::ostringstream& out, const VerdictsDocument& v) {
  size_t failed = 0, warnings = 0, passed = 0, other = 0;
  std::vector<const VerdictRow*> listed;
  for (int rank = 0; rank < 3; ++rank) {
    for (const auto& row : v.rows) if (rank_of(row.verdict) == rank) listed.push_back(&row);
  }
  for (const auto& row : v.rows) {
    if (row.verdict == "FAIL" || row.verdict == "MISSING") ++failed;
    else if (row.verdict == "WARNING") ++warnings;
    else if (row.verdict == "PASS") ++passed;
    else ++other;
  }
  out << "**Against the committed baselines: " << md(v.overall) << "**, " << failed << " failed, " << warnings << " warnings, " << passed
      << " passed";
  if (other > 0) out << ", " << other << " not judged";
  out << " (commit " << md(v.git_sha.empty() ? std::string("not recorded") : v.git_sha.substr(0, 12)) << ")\n\n";
  if (!listed.empty()) {
    out << "| Verdict | Benchmark | Field | Value | Baseline | Change | Why |\n|---|---|---|---:|---:|---:|---|\n";
    for (size_t i = 0; i < listed.size() && i < kCommentRowsPerTable; ++i) {
      const auto& row = *listed[i];
      out << "| **" << md(row.verdict) << "** | " << md(row.benchmark) << " | " << md(row.field) << " | "
          << md(row.value.empty() ? std::string("absent") : row.value) << " | " << md(row.baseline) << " | " << md(row.change_text) << " | "
          << md(row.reason) << " |\n";
    }
    if (listed.size() > kCommentRowsPerTable) out << more_line(listed.size() - kCommentRowsPerTable);
    out << "\n";
  }
  if (v.speedup) {
    const auto& s = *v.speedup;
    out << "**Speedup " << md(s.verdict) << "**: " << md(s.candidate) << " against " << md(s.reference) << ": " << md_number(s.median)
        << "x, " << md_number(100.0 * s.confidence) << " % interval [" << md_number(s.low) << ", " << md_number(s.high) << "], " << s.pairs
        << " paired repetitions; floor " << md_number(s.threshold) << "x";
    if (s.target) out << "; aim " << md_number(*s.target) << "x, reported and not gated: " << md(s.target_verdict);
    out << "\n\n";
  }
}

std::string change_percent(double fraction) {
  std::string text = format_fixed(100.0 * fraction, 2);
  if (fraction >= 0) text = "+" + text;
  return text + "%";
}

void accepted_lines(std::ostringstream& out, const std::string& benchmark, const std::string& field, const std::optional<Acceptance>& a) {
  if (!a) return;
  out << "- " << md(benchmark) << " " << md(field) << ": " << (a->within ? "**accepted**, " : "**beyond its acceptance**, ") << "up to "
      << md("+" + format_number(a->rule.percent) + "%") << " by " << md(a->rule.source) << ": " << md(a->rule.reason) << "\n";
}

}  // namespace

std::string comment_marker_line(const std::string& marker) { return "<!-- perfgate-comment:" + marker + " -->"; }

void validate_comment_input(const CommentInput& input) {
  if (input.marker.empty() || input.marker.size() > 64 ||
      input.marker.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != std::string::npos) {
    throw InputError("comment: --marker must be 1 to 64 letters, digits, '_', '.' or '-', not '" + one_line(input.marker) + "'");
  }
  for (const auto& [name, url] : {std::pair<std::string, std::string>{"--run-url", input.run_url}, {"--report-url", input.report_url}}) {
    if (!url.empty() && !plain_url(url)) {
      throw InputError("comment: " + name + " must be an http(s) URL of letters, digits and -._~:/?#=&%+,; only, not '" + one_line(url.substr(0, 200)) + "'");
    }
  }
  if (!input.verdicts && !input.ab) throw InputError("comment: give --verdicts FILE, --ab FILE or both");
}

std::string comment_overall(const CommentInput& input) {
  const std::string ab = input.ab ? overall_text(*input.ab) : "PASS";
  const std::string gate = input.verdicts ? input.verdicts->overall : "PASS";
  if (ab == "FAIL" || gate == "FAIL") return "FAIL";
  if (ab == "INCONCLUSIVE" || gate == "INCONCLUSIVE") return "INCONCLUSIVE";
  return "PASS";
}

std::string render_ab_markdown(const AbRecord& ab) {
  std::ostringstream out;
  out << "**Against the merge base** (perfgate ab, revisions interleaved ABBA, tolerated slowdown "
      << md(format_number(100.0 * ab.max_slowdown) + "%") << "): **" << md(overall_text(ab)) << "**\n\n";
  std::vector<const AbTiming*> timings;
  for (int rank = 0; rank < 4; ++rank) {
    for (const auto& t : ab.timings) if (rank_of(verdict_text(t.comparison)) == rank) timings.push_back(&t);
  }
  if (!timings.empty()) {
    out << "| Verdict | Benchmark | Head / base | Change | Interval | Base → head |\n|---|---|---:|---:|---|---|\n";
    for (size_t i = 0; i < timings.size() && i < kCommentRowsPerTable; ++i) {
      const auto& c = timings[i]->comparison;
      out << "| **" << md(verdict_text(c)) << "** | " << md(c.benchmark) << " | " << md_number(c.median) << "x | " << md(change_percent(c.median - 1.0))
          << " | [" << md_number(c.low) << ", " << md_number(c.high) << "] | " << md_number(c.base_median) << " → " << md_number(c.head_median)
          << " " << md(c.unit) << " |\n";
    }
    if (timings.size() > kCommentRowsPerTable) out << more_line(timings.size() - kCommentRowsPerTable);
    out << "\n";
  }
  if (ab.has_costs) {
    out << "**Instructions per step** (callgrind, exact; tolerated increase " << md(format_number(100.0 * ab.max_instruction_increase) + "%")
        << ")\n\n| Verdict | Benchmark | Base | Head | Change |\n|---|---|---:|---:|---:|\n";
    std::vector<const CostChange*> costs;
    for (int rank = 0; rank < 4; ++rank) {
      for (const auto& c : ab.costs) if (rank_of(verdict_text(c)) == rank) costs.push_back(&c);
    }
    for (size_t i = 0; i < costs.size() && i < kCommentRowsPerTable; ++i) {
      const auto& c = *costs[i];
      out << "| **" << md(verdict_text(c)) << "** | " << md(c.benchmark) << " | " << md(format_number(c.base, 15)) << " | "
          << md(format_number(c.head, 15)) << " | " << md(change_percent(c.change)) << " |\n";
    }
    if (costs.size() > kCommentRowsPerTable) out << more_line(costs.size() - kCommentRowsPerTable);
    out << "\n";
  }
  std::ostringstream accepted;
  size_t shown = 0;
  for (const auto& t : ab.timings) {
    if (t.comparison.acceptance && shown++ < kCommentRowsPerTable) accepted_lines(accepted, t.comparison.benchmark, "real_time", t.comparison.acceptance);
  }
  for (const auto& c : ab.costs) {
    if (c.acceptance && shown++ < kCommentRowsPerTable) accepted_lines(accepted, c.benchmark, "instructions", c.acceptance);
  }
  if (shown > 0) out << "Regressions accepted on purpose (perfgate-accept trailers of the pull request's commits):\n\n" << accepted.str() << "\n";
  return out.str();
}

std::string render_comment(const CommentInput& input) {
  validate_comment_input(input);
  std::ostringstream out;
  const std::string overall = comment_overall(input);
  out << comment_marker_line(input.marker) << "\n### perfgate: " << overall << "\n\n";
  if (input.verdicts) render_verdicts(out, *input.verdicts);
  if (input.ab) out << render_ab_markdown(*input.ab);
  std::string links;
  if (!input.report_url.empty()) links += "[Report](" + input.report_url + ")";
  if (!input.run_url.empty()) links += std::string(links.empty() ? "" : " · ") + "[Run](" + input.run_url + ")";
  if (!links.empty()) out << links << "\n";
  return out.str();
}

}  // namespace perfgate
