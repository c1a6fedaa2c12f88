#include "render/comment_markdown.h"

#include "base/error.h"
#include "base/markdown_text.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "formats/function_changes_input.h"
#include "model/commit_mark.h"
#include "render/ab_markdown.h"
#include "render/markdown_rows.h"
#include "render/row_text.h"

#include <algorithm>
#include <sstream>

namespace perfgate {
namespace {

constexpr size_t kVerdictTableBytes = 24000;
constexpr size_t kFixCommandBytes = 1000;  // per failing results file; longer ones are left to the report
constexpr size_t kFixesShown = 5;  // at most 5 kB of commands; the others are left to the report  // with the A/B's
                                   // (ab_markdown.h) well below GitHub's 65,536 characters

std::string md(const std::string& text) { return markdown_cell(text); }

std::string md_number(double value) { return markdown_text(format_number(value, 4)); }

// Text shown literally as inline code, on one line: fenced by one backtick more than the longest run of backticks it
// holds (CommonMark), and padded with a space on each side when it begins or ends with a backtick, which keeps that
// backtick part of the code.
std::string code_span(const std::string& text) {
  const auto line = one_line(text);
  size_t longest = 0, run = 0;
  for (const char c : line) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !line.empty() && (line.front() == '`' || line.back() == '`');
  return fence + (pad ? " " + line + " " : line) + fence;
}

// A commit as a reader compares it: 12 characters, "-dirty" kept (the run measured uncommitted changes).
std::string short_commit(const std::string& sha) {
  if (sha.empty()) return "not recorded";
  if (!marks_uncommitted_changes(sha)) return sha.substr(0, 12);
  return sha.substr(0, std::min<size_t>(12, sha.size() - kUncommittedMark.size())) + std::string(kUncommittedMark);
}

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

// The baselines' own verdict, from their rows: verdicts.json's overall also counts the speedup and the A/B.
std::string baselines_verdict(const VerdictsDocument& v) {
  for (const auto& row : v.rows) {
    if (row.verdict == "FAIL" || row.verdict == "MISSING") return "FAIL";
  }
  return "PASS";
}

void render_verdicts(std::ostringstream& out, const VerdictsDocument& v) {
  size_t failed = 0, warnings = 0, passed = 0, other = 0;
  std::vector<std::string> rows;
  for (int rank = 0; rank < 2; ++rank) {
    for (const auto& row : v.rows) {
      const bool failing = row.verdict == "FAIL" || row.verdict == "MISSING";
      if ((rank == 0 && !failing) || (rank == 1 && row.verdict != "WARNING")) continue;
      rows.push_back("| **" + md(row.verdict) + "** | " + md(row.benchmark) + " | " + md(row.field) + " | " +
                     md(row.value.empty() ? std::string("absent") : with_unit(row.value, row.unit)) + " | " +
                     md(with_unit(row.baseline, row.unit)) + " | " + md(row.change_text) + " | " +
                     md(with_unit(row.worst_acceptable, row.unit)) + " | " + md(row.tolerance) + " | " +
                     md(row.reason) + " |\n");
    }
  }
  for (const auto& row : v.rows) {
    if (row.verdict == "FAIL" || row.verdict == "MISSING")
      ++failed;
    else if (row.verdict == "WARNING")
      ++warnings;
    else if (row.verdict == "PASS")
      ++passed;
    else
      ++other;
  }
  out << "**Against the committed baselines: " << baselines_verdict(v) << "**, " << failed << " failed, " << warnings
      << " warnings, " << passed << " passed";
  if (other > 0) out << ", " << other << " not judged";
  out << " (commit " << md(short_commit(v.git_sha)) << ")\n\n";
  if (!rows.empty()) {
    out << "| Verdict | Benchmark | Field | Value | Baseline | Change | Worst acceptable | Tolerance | Why |\n"
        << "|---|---|---|---:|---:|---:|---:|---|---|\n";
    append_rows(out, rows, kCommentRowsPerTable, kVerdictTableBytes);
    out << "\n";
  }
  for (size_t i = 0; i < v.fixes.size() && i < kFixesShown; ++i) {
    const auto& fix = v.fixes[i];
    out << "Accept an intended change of **" << md(fix.suite) << "** with ";
    if (fix.command.size() <= kFixCommandBytes)
      out << code_span(fix.command) << "\n\n";
    else
      out << "the command in the report (too long to show here)\n\n";
  }
  if (v.fixes.size() > kFixesShown)
    out << "The commands that accept the other " << v.fixes.size() - kFixesShown << " changes are in the report.\n\n";
  std::vector<std::string> moves;  // which functions moved a failing instruction count
  for (const auto& row : v.rows) {
    if ((row.verdict == "FAIL") && row.functions) {
      const auto line = profile_changes_markdown_line(row.benchmark, *row.functions);
      if (!line.empty()) moves.push_back("- " + line);
    }
  }
  if (!moves.empty()) {
    append_rows(out, moves, kCommentRowsPerTable, kVerdictTableBytes / 4);
    out << "\n";
  }
  for (const auto& s : v.speedups) {
    out << "**Speedup " << md(s.verdict) << "**: " << md(s.candidate) << " against " << md(s.reference) << ": "
        << md_number(s.median) << "x, " << md_number(100.0 * s.confidence) << " % interval [" << md_number(s.low)
        << ", " << md_number(s.high) << "], " << s.pairs << " paired repetitions; floor " << md_number(s.threshold)
        << "x";
    if (s.target) out << "; aim " << md_number(*s.target) << "x, reported and not gated: " << md(s.target_verdict);
    out << "\n\n";
  }
}

}  // namespace

std::string comment_marker_line(const std::string& marker) { return "<!-- perfgate-comment:" + marker + " -->"; }

void validate_comment_input(const CommentInput& input) {
  if (input.marker.empty() || input.marker.size() > 64 ||
      input.marker.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
          std::string::npos) {
    throw InputError("comment: --marker must be 1 to 64 letters, digits, '_', '.' or '-', not '" +
                     one_line(input.marker) + "'");
  }
  for (const auto& [name, url] :
       {std::pair<std::string, std::string>{"--run-url", input.run_url}, {"--report-url", input.report_url}}) {
    if (!url.empty() && !plain_url(url)) {
      throw InputError("comment: " + name +
                       " must be an http(s) URL of letters, digits and -._~:/?#=&%+,; only, not '" +
                       one_line(url.substr(0, 200)) + "'");
    }
  }
  if (input.ab && !input.ab_job.empty()) throw InputError("comment: give --ab or --ab-job, not both");
  if (!input.ab_job.empty() && input.ab_job != "success" && input.ab_job != "failure" && input.ab_job != "cancelled" &&
      input.ab_job != "skipped") {
    throw InputError(
        "comment: --ab-job is the A/B job's result when it wrote no verdicts: success, failure, cancelled or skipped, "
        "not '" +
        one_line(input.ab_job) + "'");
  }
  if (!input.verdicts && !input.ab && input.ab_job.empty())
    throw InputError("comment: give --verdicts FILE, --ab FILE or both");
}

std::string comment_overall(const CommentInput& input) {
  // Nothing judged at all (no verdicts, and an A/B job that was skipped) is no PASS.
  if (!input.verdicts && !input.ab && input.ab_job == "skipped") return "INCONCLUSIVE";
  const std::string ab = input.ab ? overall_text(*input.ab) : input.ab_job == "failure" ? "FAIL" : "PASS";
  const std::string gate = input.verdicts ? input.verdicts->overall : "PASS";
  if (ab == "FAIL" || gate == "FAIL") return "FAIL";
  if (ab == "INCONCLUSIVE" || gate == "INCONCLUSIVE" || input.ab_job == "cancelled" || input.ab_job == "success")
    return "INCONCLUSIVE";
  return "PASS";
}

std::string render_comment(const CommentInput& input) {
  validate_comment_input(input);
  std::ostringstream out;
  out << comment_marker_line(input.marker) << "\n### perfgate: " << comment_overall(input) << "\n\n";
  if (input.verdicts) render_verdicts(out, *input.verdicts);
  if (input.ab) out << render_ab_markdown(*input.ab);
  if (!input.ab_job.empty() && input.ab_job != "skipped") {
    out << "**Against the merge base: no result**: the A/B job ended with '" << input.ab_job
        << "' before it wrote its verdicts; see the run.\n\n";
  }
  if (!input.verdicts && !input.ab && input.ab_job == "skipped") {
    out << "**Nothing was judged**: no verdicts against the baselines, and the A/B job was skipped; see the run.\n\n";
  }
  std::string links;
  if (!input.report_url.empty()) links += "[Report](" + input.report_url + ")";
  if (!input.run_url.empty()) links += std::string(links.empty() ? "" : " · ") + "[Run](" + input.run_url + ")";
  if (!links.empty()) out << links << "\n";
  return out.str();
}

}  // namespace perfgate
